/// @file injected_bugs.h
/// @brief Deliberate defects the generator can build into the RTL, to show
/// that the fuzzer finds what it should (tests/fuzz_injected, docs/fuzz.md),
/// and that the AXI protocol checker catches a broken master (docs/axi.md).
///
/// Each is a one-line change of the kind a careful engineer still makes:
/// an off-by-one bound, a product one bit short, one term of one level
/// forgotten, an interlock that misses a case. A generated file that carries
/// one says so in its header. The CLI option that selects one
/// (--inject-bug) is hidden from --help: it is for testing the fuzzer.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tpugen::hdl {

/// The generator a defect belongs to: the core's (tpugen gen / run / fuzz),
/// the NoC fabric's (tpugen noc ...) or the system node's (tpugen mover ...).
enum class BugTarget { Core, Noc, SystemNode };

/// The target's name in messages: "core", "NoC", "system node".
std::string_view bug_target_name(BugTarget t);

struct InjectedBug {
  std::string_view name;
  std::string_view module;       ///< the module (generated or hand-written) that carries it
  std::string_view description;  ///< what is wrong, and what it takes to see it
  /// For a defect in a hand-written file (rtl/: a primitive or a core
  /// module): the line it changes and what it becomes (generate() applies it
  /// when copying the file).
  /// Empty for a defect an emitter builds in.
  std::string_view correct = {}, defective = {};
  BugTarget target = BugTarget::Core;
};

/// Every defect the generator knows, by name.
std::span<const InjectedBug> injected_bugs();

/// The defect of that name; throws Error("rtl.inject") naming the known
/// ones when there is none.
const InjectedBug& injected_bug(std::string_view name);
/// The same, insisting that it is a defect of `target`: Error("rtl.inject")
/// naming the known ones of that target otherwise.
const InjectedBug& injected_bug(std::string_view name, BugTarget target);

/// Apply the defect `bug` to a hand-written file's text when it is one of
/// that module's (module == `module`); otherwise leave it.
void inject_primitive_defect(std::string& text, std::string_view module, std::string_view bug);

/// Build defect `bug` into emitted text: replace the one occurrence of
/// `correct` with `defective`. Throws Error("rtl.inject") when `correct` is
/// not in the text exactly once (the emitter changed under the defect).
void inject_defect(std::string& text, std::string_view bug, std::string_view correct, std::string_view defective);

}  // namespace tpugen::hdl
