// tpu_spm: the scratchpad unit. spm owns spad and, per the actions table,
// writes rows it receives (dma_ld) and reads rows onto its outputs (vld onto
// sp2vr; mm onto wcol after the header word). Its structure is the one every
// memory unit shares, built by emit_memory_unit (unit_decode.cpp).
#include "hdl/emitters.h"
#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

std::string emit_tpu_spm(const RtlContext& ctx) {
  return emit_memory_unit(ctx, "spm", "tpu_spm", "spm: the scratchpad and its streams");
}

}  // namespace tpugen::hdl
