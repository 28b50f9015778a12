// tpu_vru: the vector register unit. vru owns vr and, per the actions table,
// writes rows it receives (dma_ld from dma2vr, vld from sp2vr) and reads the
// activation rows of an mm onto acol. Its structure is the one every memory
// unit shares, built by emit_memory_unit (unit_decode.cpp).
#include "hdl/emitters.h"
#include "hdl/core/unit_decode.h"

namespace tpugen::hdl {

std::string emit_tpu_vru(const RtlContext& ctx) {
  return emit_memory_unit(ctx, "vru", "tpu_vru", "vru: the vector registers and the activation stream");
}

}  // namespace tpugen::hdl
