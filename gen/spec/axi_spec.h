/// @file axi_spec.h
/// @brief The AXI top's host interface as data (spec/axi_top.yaml): the
/// AXI4 master's streams and burst rules, and the AXI4-Lite control slave's
/// register map. Read strictly, validated whole; the AXI emitters, the
/// testbench's host driver constants and the docs table derive from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/diag.h"
#include "spec/expr.h"

namespace tpugen {

/// How the host and the hardware reach a register field.
enum class FieldAccess {
  Rw,     ///< written by the host, read back
  Ro,     ///< driven by the hardware; writes ignored
  W1sHc,  ///< the host writes 1 to set; the hardware sets and clears
  Cor,    ///< set by a hardware event; cleared when the register is read
  Tow,    ///< set by a hardware event; each 1 written toggles it
};

/// The YAML word of an access kind ("rw", "ro", "w1s_hc", "cor", "tow").
[[nodiscard]] std::string_view access_name(FieldAccess a);

struct RegField {
  std::string name;
  int lsb = 0;
  int width = 1;
  FieldAccess access = FieldAccess::Rw;
  std::string role;
  SourceLoc loc;
};

struct Register {
  std::string name;
  std::uint32_t offset = 0;
  std::string role;
  std::vector<RegField> fields;
  SourceLoc loc;
};

/// One of the core's memory ports carried by the AXI master.
struct AxiStream {
  std::string port;                ///< the core's port: imem, dram_rd, dram_wr
  int id = 0;                      ///< its AXI ID
  std::vector<std::string> bases;  ///< base address names (each a <name>_lo / <name>_hi field pair)
  std::string role;
  SourceLoc loc;
};

struct AxiMasterSpec {
  std::string bundle;     ///< m_axi_<bundle>_*
  Expr data_bytes;        ///< over the ISA's parameters and derived constants
  int addr_bits = 64;
  int id_bits = 1;
  int max_burst_beats = 16;
  int boundary_bytes = 4096;
  int max_outstanding = 8;
  std::vector<AxiStream> streams;
  [[nodiscard]] const AxiStream* stream(std::string_view port) const;
};

struct AxiControlSpec {
  std::string bundle;  ///< s_axi_<bundle>_*
  int data_bits = 32;
  int addr_bits = 7;
  std::vector<Register> registers;  ///< in offset order
};

struct AxiTopSpec {
  std::string path;
  std::string sha256;
  std::string name;
  AxiMasterSpec master;
  AxiControlSpec control;

  /// The field of that name and the register holding it, or nullptr.
  [[nodiscard]] const RegField* field(std::string_view name, const Register** reg = nullptr) const;
  /// The field, or Error("axi.spec") naming what needs it.
  [[nodiscard]] const RegField& require_field(std::string_view name, std::string_view needed_by) const;
};

/// Where the AXI top's spec sits: axi_top.yaml beside the ISA spec file.
[[nodiscard]] std::string axi_top_spec_path(const std::string& isa_spec_path);

/// Read and validate. Errors: "axi.io", "axi.yaml", "axi.spec" with file:line.
AxiTopSpec load_axi_top_spec(const std::string& path);
AxiTopSpec load_axi_top_spec_text(const std::string& text, const std::string& path);

}  // namespace tpugen
