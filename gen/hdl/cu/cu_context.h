/// @file cu_context.h
/// @brief What the compute units' emitters read: the NoC spec, the compute
/// units' (spec/compute_units.yaml), the CU wrapper's and the orchestrator's
/// resolved build parameters, and the TinyTPU unit's constants over the
/// core's build parameters (its tags, row words, buffer sizes).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "isa/instr.h"
#include "spec/compute_units_spec.h"
#include "spec/noc_spec.h"

namespace tpugen::hdl {

class CuContext {
 public:
  /// `core_params` lists the core's build parameters for the file headers;
  /// `unit` holds the TinyTPU unit's constants evaluated over them.
  CuContext(const NocSpec& noc, const SystemNodeSpec& sysnode, const ComputeUnitsSpec& spec, NocParams cu_base_params,
            NocParams orch_params, UnitConstants unit, std::string core_params,
            std::map<std::string, std::int64_t> core = {});

  [[nodiscard]] const NocSpec& noc() const { return *noc_; }
  [[nodiscard]] const SystemNodeSpec& sysnode() const { return *sysnode_; }
  [[nodiscard]] const ComputeUnitsSpec& spec() const { return *spec_; }
  [[nodiscard]] const NocParams& cu_base_params() const { return cu_base_params_; }
  [[nodiscard]] const NocParams& orch_params() const { return orch_params_; }
  [[nodiscard]] const UnitConstants& unit() const { return unit_; }
  /// ORCH_ADDR_W: the bits of the orchestrator's byte address (its
  /// registers, the mover window and the staging slots).
  [[nodiscard]] int orch_addr_bits() const;
  /// The core's build parameters the unit's RTL reads (T, MAXDIM, IMEM_SIZE,
  /// DMA_WORDS); empty when the context builds no unit.
  [[nodiscard]] const std::map<std::string, std::int64_t>& core() const { return core_; }

  /// The comment every generated file starts with (no timestamp).
  [[nodiscard]] std::string file_header(std::string_view module, std::string_view description) const;

 private:
  const NocSpec* noc_;
  const SystemNodeSpec* sysnode_;
  const ComputeUnitsSpec* spec_;
  NocParams cu_base_params_, orch_params_;
  UnitConstants unit_;
  std::string core_params_;
  std::map<std::string, std::int64_t> core_;
};

/// The context of a build: the wrapper's and the orchestrator's parameters
/// (the spec's defaults with `cu` and `orch` applied), the TinyTPU unit's
/// constants over the core's parameters in `isa` (Error("cu.constraint") when
/// they break one of the unit's constraints).
CuContext make_cu_context(const NocSpec& noc, const SystemNodeSpec& sysnode, const ComputeUnitsSpec& spec,
                          const Isa& isa, const std::map<std::string, std::string>& cu = {},
                          const std::map<std::string, std::string>& orch = {});

/// tpu_cu_pkg: the wrapper's, the orchestrator's and the TinyTPU unit's
/// constants, from the specs.
std::string emit_tpu_cu_pkg(const CuContext& ctx);

}  // namespace tpugen::hdl
