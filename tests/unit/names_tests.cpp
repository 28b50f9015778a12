// util/names.h: the naming helpers every emitter and the CLI share.
#include <catch2/catch.hpp>

#include "util/names.h"

using namespace tpugen;

TEST_CASE("naming helpers spell a spec name in each output's form", "[names]") {
  CHECK(upper("ar.read") == "AR_READ");
  CHECK(upper("mm") == "MM");
  CHECK(lower("CLK_I") == "clk_i");
  CHECK(camel("dma2sp") == "Dma2sp");
  CHECK(camel("ar.read") == "ArRead");
  CHECK(camel("dram_wr") == "DramWr");
  CHECK(kebab("SPAD_ROWS") == "spad-rows");
  CHECK(upper("").empty());
  CHECK(camel("").empty());
}
