/// @file cocotb_build.h
/// @brief `tpugen gen --vpi`: beside the generated RTL, what a cocotb
/// testbench of the configuration needs: a Verilator build with VPI
/// (cocotb.mk, to include from a Makefile), the facts the helper library
/// reads (tpu_config.json), the helper library itself (tpugen_cocotb/, copied
/// from tb/cocotb), the pinned requirements, an example Makefile and test,
/// and COCOTB.md. See docs/cocotb.md.
#pragma once

#include <string>
#include <vector>

#include "hdl/rtl_context.h"

namespace tpugen::sim {

/// tpu_config.json: the configuration as the helper library sees it (top
/// module, build parameters, beat and memory sizes, fault, unit and progress
/// counter names), derived from the spec and the generated package; for the
/// AXI top also "axi": the bus width, ID bits, burst rules, bundle names,
/// streams and the control register fields, from the AXI spec (ctx.axi()).
std::string cocotb_config_json(const hdl::RtlContext& ctx);

/// The Verilator arguments cocotb.mk adds to cocotb's own (--vpi
/// --public-flat-rw): the harness build's model arguments.
std::vector<std::string> cocotb_verilator_args();

/// Write the cocotb build into `out_dir`, which already holds the generated
/// RTL (hdl::generate). Returns the paths written, in a fixed order.
/// Byte-identical for identical inputs.
std::vector<std::string> write_cocotb_build(const hdl::RtlContext& ctx, const std::string& out_dir);

}  // namespace tpugen::sim
