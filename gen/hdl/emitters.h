/// @file emitters.h
/// @brief One function per generated SystemVerilog module. Each returns the
/// whole file text, starting with ctx.file_header(). The table in
/// generate.cpp lists them; there is no self-registration.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdl/rtl_context.h"
#include "util/template.h"

namespace tpugen::hdl {

std::string emit_tpu_pkg(const RtlContext& ctx);        ///< constants and the dispatched instruction type
std::string emit_tpu_top(const RtlContext& ctx);        ///< units, channels and memory ports
std::string emit_tpu_sequencer(const RtlContext& ctx);  ///< fetch, header, loop stack, AGU, dispatch, faults
std::string emit_tpu_dma_ld(const RtlContext& ctx);     ///< operand reads from A and B
std::string emit_tpu_spm(const RtlContext& ctx);        ///< the scratchpad unit
std::string emit_tpu_vru(const RtlContext& ctx);        ///< the vector register unit
std::string emit_tpu_array(const RtlContext& ctx);      ///< the T x T weight-stationary array
std::string emit_tpu_accu(const RtlContext& ctx);       ///< the accumulator unit
std::string emit_tpu_dma_st(const RtlContext& ctx);     ///< results to C
std::string emit_tpu_axi_pkg(const RtlContext& ctx);    ///< the AXI spec's constants (--top axi)
std::string emit_tpu_axi_ctrl(const RtlContext& ctx);   ///< the AXI4-Lite control slave (--top axi)
std::string emit_tpu_axi_top(const RtlContext& ctx);    ///< the core behind AXI4 (--top axi)

/// A SystemVerilog template under rtl/ (`path` relative to it, e.g.
/// "core/tpu_array.sv.tpl"), its leading `//!` note lines dropped, with every
/// `@NAME@` filled by the one strict filler (util/template.h, kSvTemplate):
/// throws Error("rtl.template") for a placeholder without a value or a value
/// the template does not use.
std::string sv_template(std::string_view path, const TemplateValues& values);

/// The build parameters the core's modules use, in spec order.
std::vector<std::string> core_parameters(const RtlContext& ctx);
/// The parameter declarations of a top (tpu_top, tpu_axi_top): the core's
/// build parameters, VW and AW, ImemBeat, CBeat and Watchdog, each line
/// "  parameter int NAME = value,"; the last without its comma.
std::string top_parameter_decls(const RtlContext& ctx);
/// tpu_top's port declarations: the clock and reset, then every interface
/// of the spec (progress_o after the status ports), aligned, one a line.
std::string top_port_decls(const RtlContext& ctx);

/// The members of tpu_pkg::instr_t, one `logic [<scope>W-1:0] name;` line
/// each, for the package and for a unit's local copy of the type (scope
/// "tpu_pkg::"): Icarus 11 cannot use a package struct type in a module.
std::string instr_members_sv(const RtlContext& ctx, std::string_view scope, std::string_view indent);
/// The width of instr_t as a sum of the package's width constants (INSTR_W).
std::string instr_width_sv(const RtlContext& ctx);

}  // namespace tpugen::hdl
