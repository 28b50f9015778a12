/// @file unit_decode.h
/// @brief What the data-moving unit emitters (dma_ld, spm, vru, dma_st)
/// share: each opcode's use of a unit sorted into reads, writes, emits,
/// receives and computes; the pattern checks that refuse a use a unit does
/// not implement; and the SystemVerilog they all render the same way: the
/// decode `case`, the port list, the "instruction in flight" skeleton (one
/// step per cycle, the next instruction taken with the last step), the
/// progress counter and the unused-field sink. spm and vru are the same
/// kind of unit (a 1R1W memory written from channels and read onto
/// channels), so their whole module is built here by `emit_memory_unit`.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hdl/rtl_context.h"

namespace tpugen::hdl {

/// One opcode's use of a unit, its actions sorted by kind (table order kept).
struct OpPattern {
  const Opcode* op = nullptr;
  std::vector<const Action*> reads, writes, emits, receives, computes;
};

/// Every opcode that reaches `unit`, classified.
std::vector<OpPattern> unit_patterns(const RtlContext& ctx, std::string_view unit);

/// Refuse to generate: `rtl.unsupported`, naming the unit and the opcode.
[[noreturn]] void unsupported(std::string_view unit, std::string_view opcode, std::string_view why);

/// Whether `a` items equal `b` items plus `delta` at nr = 1 .. 3 and the
/// configured parameters; refuses (rtl.unsupported) a count that names an
/// operand, since a unit counts steps without reading operands.
bool items_match(const RtlContext& ctx, std::string_view unit, const OpPattern& p, const Expr& a, const Expr& b,
                 std::int64_t delta = 0);

/// The one condition every action of the pattern shares, rendered against
/// `instr` ("1'b1" when none has one); refuses a pattern whose actions
/// disagree (the unit would do part of the instruction).
std::string shared_condition(const RtlContext& ctx, std::string_view unit, const OpPattern& p);

/// The instruction field an action's base operand travels in ("f3").
std::string base_field(const RtlContext& ctx, std::string_view unit, const OpPattern& p, const Action& a);
/// The instruction fields an expression reads ("nr" included), for the sink.
void add_fields_of(const Opcode& op, const Expr& e, std::set<std::string>& fields);

/// The header entry that counts this unit's steps (kind unit_steps), as its
/// tpu_pkg::PROGRESS_ constant name; refuses a unit with another number of
/// progress counters or one of kind port_items.
std::string progress_const(const RtlContext& ctx, std::string_view unit);

// --- Rendering ---------------------------------------------------------------

/// A field of the instruction in flight, `cur_<name>` (held in the unit's
/// tpu_instr_slot): loaded from the decode's `dec_<name>` when an instruction
/// is taken and updated by `on_step` (an expression over the cur_ values;
/// empty: hold) on each step.
struct CurField {
  std::string name;
  std::string width;  ///< its bits, an SV expression ("1", "32", "RouteW")
  std::string reset;  ///< the decode's value for an opcode that does not set it
  std::string on_step;
  std::string comment;
};

/// One arm of the decode: the label (a tpu_pkg::OP_ constant), a comment
/// saying what the unit does, and the values it gives `dec_valid` ("valid")
/// and the `dec_<field>` signals; a field it does not name gets its reset.
struct DecodeArm {
  std::string label;
  std::string comment;
  std::vector<std::pair<std::string, std::string>> sets;
};
/// The decode of instr_i: `always_comb` with `unique case (instr_op)` in
/// which every arm, and the default (dec_valid = 0), assigns every decode
/// output exactly once.
///
/// Every always_comb the movers emit assigns each output once per pass (no
/// default-then-override): Icarus 11 loops forever, at one simulation time,
/// on a chain of always_comb blocks that each write an output twice.
std::string render_decode(const std::vector<CurField>& fields, const std::vector<DecodeArm>& arms);

/// One port of a module: direction, type, name and a trailing comment.
struct PortDecl {
  std::string dir;  ///< "input" or "output"; empty for a comment line
  std::string type;
  std::string name;
  std::string comment;
};
/// The ANSI port list, aligned, with a separating comment line where `dir`
/// is empty (its `comment` is the text).
std::string render_ports(const std::vector<PortDecl>& ports);
/// The ports every dispatched unit has at the front (clk, reset, instruction stream).
std::vector<PortDecl> head_ports();
/// The ports every unit has at the end: progress_o and idle_o.
std::vector<PortDecl> tail_ports(const std::string& progress_const);
/// A channel the unit receives (`in`) or emits, as three ports of width `type`.
std::vector<PortDecl> channel_ports(const Channel& c, bool in, const std::string& type);

/// A field's SV type: `logic`, `logic [31:0]` or `logic [W-1:0]`.
std::string field_type(const CurField& f);

/// Declarations of the decode outputs (dec_valid, dec_<name>), the fields
/// of the instruction in flight (cur_valid, cur_<name>; FieldW, their bits
/// together) and the unit's `step`.
std::string render_skeleton_decls(const std::vector<CurField>& fields);
/// The instruction in flight: the hand-written tpu_instr_slot (u_cur) over the
/// fields' flat vector. It takes one step whenever the unit drives `step`,
/// and the next instruction in the cycle of the last step (so consecutive
/// instructions run back to back); an instruction the decode does not claim,
/// or with zero steps, is consumed and does nothing.
std::string render_skeleton_logic(const std::vector<CurField>& fields);

/// The progress counter (a tpu_counter, u_progress), advanced by the number
/// of `increments` (1-bit signals) high each cycle, driving progress_o.
std::string render_progress(const std::vector<std::string>& increments);

/// The instruction port is tpu_pkg::instr_t as INSTR_W bits (Icarus 11
/// cannot use the package's struct type in a module): it is read through a
/// local copy of the type (instr_members_sv), `instr_t instr`. Sinks the
/// members not in `used` into `unused_instr`, and the members in
/// `truncated` (read through a narrower address) whole into
/// `unused_instr_high`. Expressions render against it with
/// ctx.sv_of(e, op, "instr").
std::string render_instr_fields(const RtlContext& ctx, const std::set<std::string>& used,
                                const std::set<std::string>& truncated = {});

/// A module parameter that is a generator option, not a build parameter.
struct OptionParam {
  std::string name;
  int value = 0;
  std::string comment;
};

/// The module's parameter list with a comment per parameter: `params` are
/// build parameter names (defaults: the generated configuration), then the
/// generator options `options`, then the derived operand row width VW.
std::string render_params(const RtlContext& ctx, const std::vector<std::string>& params,
                          const std::vector<std::string>& comments,
                          const std::vector<OptionParam>& options = {});

// --- The memory units (spm, vru) ----------------------------------------------

/// A unit owning one 1R1W memory: every opcode reaching it either receives
/// rows on a channel and writes them at base + r, or reads rows at base + r
/// and emits them on a channel (after the channel's header word, if the
/// receiver's port takes one). Refuses any other pattern.
std::string emit_memory_unit(const RtlContext& ctx, std::string_view unit, std::string_view module,
                             std::string_view description);

/// Whether `emit_memory_unit` builds `unit`: some opcode reaches it and each
/// one either receives rows and writes them or reads rows and emits them.
/// Such a unit takes QD (its pending instructions per engine) as a parameter.
bool is_memory_unit(const RtlContext& ctx, std::string_view unit);

}  // namespace tpugen::hdl
