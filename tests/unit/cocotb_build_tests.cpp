// tpugen gen --vpi (tb/sim/cocotb_build.h): tpu_config.json against the spec,
// the package and the harness configuration; the files written, with every
// template placeholder filled. The cocotb runs themselves are the cocotb.*
// CTest tests (tests/cocotb).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "sim/cocotb_build.h"
#include "hdl/generate.h"
#include "sim/rtl_engine.h"
#include "test_support.h"

using namespace tpugen;
namespace fs = std::filesystem;

namespace {

hdl::RtlOptions options() {
  hdl::RtlOptions o;
  o.imem_beat_words = 4;
  o.c_beat_words = 2;
  return o;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "unit_cocotb" / name;
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("cocotb build: tpu_config.json holds the configuration the spec and the package define", "[cocotb]") {
  const Isa isa = test::isa_at({{"T", 8}, {"MAXDIM", 32}});
  const hdl::RtlContext ctx(isa, options());
  const auto j = nlohmann::json::parse(sim::cocotb_config_json(ctx));

  CHECK(j.at("top") == "tpu_top");
  CHECK(j.at("top_kind") == "core");
  for (const auto& [name, v] : isa.params().build_parameters()) CHECK(j.at("parameters").at(name) == v);
  CHECK(j.at("maxdim") == 32);
  CHECK(j.at("matrix_bytes") == 32 * 32);
  CHECK(j.at("imem_size") == isa.param("IMEM_SIZE"));
  CHECK(j.at("imem_beat_words") == 4);
  // An operand row is T int8 lanes (VW bits); a read beat DMA_WORDS rows, a C write beat CBeat rows.
  CHECK(j.at("read_beat_bytes") == isa.param("DMA_WORDS") * 8);
  CHECK(j.at("write_beat_bytes") == 2 * 8);
  CHECK(j.at("count_width") == ctx.count_width());

  // The fault names are the package's, in code order, as the C++ harness has them.
  const auto faults = j.at("fault_names").get<std::vector<std::string>>();
  CHECK(faults == sim::fault_names(ctx));
  REQUIRE(faults.size() > 1);
  CHECK(faults.front() == "NONE");
  const std::string header = sim::sim_config_header(ctx);
  for (const auto& f : faults) CHECK(header.find("\"" + f + "\"") != std::string::npos);

  // One counter per header entry that counts a unit's work, in spec order.
  std::vector<std::string> want;
  for (const auto& h : isa.spec().header)
    if (h.count.kind == HeaderCount::UnitSteps || h.count.kind == HeaderCount::PortItems) want.push_back(h.name);
  std::vector<std::string> got;
  for (const auto& c : j.at("counters")) got.push_back(c.at("name").get<std::string>());
  CHECK(got == want);
  std::vector<std::string> units;
  for (const auto& u : isa.spec().units) units.push_back(u.name);
  CHECK(j.at("unit_names").get<std::vector<std::string>>() == units);
}

TEST_CASE("cocotb build: gen --vpi writes the Verilator build and the library with every placeholder filled",
          "[cocotb]") {
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const hdl::RtlContext ctx(isa, hdl::RtlOptions{});
  const fs::path dir = fresh_dir("t4");
  hdl::generate(ctx, dir.string());
  const auto written = sim::write_cocotb_build(ctx, dir.string());

  for (const char* f : {"cocotb.mk", "Makefile", "test_tpu.py", "COCOTB.md", "requirements.txt", "tpu_config.json",
                        "tpugen_cocotb/__init__.py", "tpugen_cocotb/driver.py", "tpugen_cocotb/memory.py"})
    CHECK(std::find(written.begin(), written.end(), (dir / f).string()) != written.end());
  const std::regex placeholder("@[A-Z_]+@");
  for (const auto& f : written) {
    INFO(f);
    CHECK_FALSE(std::regex_search(test::read_text(f), placeholder));
  }
  // The library and the pinned requirements are copies of tb/cocotb.
  CHECK(test::read_text((dir / "requirements.txt").string()) ==
        test::read_text(TPUGEN_SOURCE_DIR "/tb/cocotb/requirements.txt"));
  CHECK(test::read_text((dir / "tpugen_cocotb" / "driver.py").string()) ==
        test::read_text(TPUGEN_SOURCE_DIR "/tb/cocotb/tpugen_cocotb/driver.py"));

  const std::string mk = test::read_text((dir / "cocotb.mk").string());
  CHECK(mk.find("TOPLEVEL ?= tpu_top\n") != std::string::npos);
  CHECK(mk.find("files.f") != std::string::npos);
  CHECK(mk.find("Makefile.sim") != std::string::npos);
  // The model flags are the harness build's, so the two simulators agree.
  const auto harness = sim::verilator_args("d", {});
  for (const auto& a : sim::cocotb_verilator_args()) {
    CHECK(mk.find(" " + a) != std::string::npos);
    CHECK(std::find(harness.begin(), harness.end(), a) != harness.end());
  }

  // Byte-identical when written again.
  std::vector<std::string> first;
  for (const auto& f : written) first.push_back(test::read_text(f));
  sim::write_cocotb_build(ctx, dir.string());
  for (std::size_t i = 0; i < written.size(); ++i) CHECK(test::read_text(written[i]) == first[i]);
}

TEST_CASE("cocotb build: tpu_config.json of the AXI top carries the AXI spec's bus and register fields", "[cocotb]") {
  hdl::RtlOptions o;
  o.top = hdl::TopKind::Axi;
  const Isa isa = test::isa_at({{"T", 4}, {"MAXDIM", 16}});
  const hdl::RtlContext ctx(isa, o);
  const auto j = nlohmann::json::parse(sim::cocotb_config_json(ctx));
  CHECK(j.at("top") == "tpu_axi_top");
  CHECK(j.at("top_kind") == "axi");

  // Against the AXI spec read on its own, and the bus width the RTL is built with.
  const AxiTopSpec spec = load_axi_top_spec(axi_top_spec_path(isa.spec().path));
  const auto& a = j.at("axi");
  CHECK(a.at("data_bytes") == ctx.axi_data_bytes());
  CHECK(a.at("data_bytes") == isa.param("BUS_BYTES"));
  CHECK(a.at("id_bits") == spec.master.id_bits);
  CHECK(a.at("max_burst_beats") == spec.master.max_burst_beats);
  CHECK(a.at("boundary_bytes") == spec.master.boundary_bytes);
  CHECK(a.at("master_bundle") == spec.master.bundle);
  CHECK(a.at("control_bundle") == spec.control.bundle);
  REQUIRE(a.at("streams").size() == spec.master.streams.size());
  for (std::size_t i = 0; i < spec.master.streams.size(); ++i) {
    CHECK(a.at("streams")[i].at("port") == spec.master.streams[i].port);
    CHECK(a.at("streams")[i].at("id") == spec.master.streams[i].id);
    CHECK(a.at("streams")[i].at("bases").get<std::vector<std::string>>() == spec.master.streams[i].bases);
  }
  // Every field, with the offset, lsb and width the C++ harness's sim_config.h has for it.
  const std::string header = sim::sim_config_header(ctx);
  std::size_t fields = 0;
  for (const auto& r : spec.control.registers)
    for (const auto& f : r.fields) {
      INFO(f.name);
      ++fields;
      const auto& jf = a.at("fields").at(f.name);
      CHECK(jf.at("register") == r.name);
      CHECK(jf.at("offset") == r.offset);
      CHECK(jf.at("lsb") == f.lsb);
      CHECK(jf.at("width") == f.width);
      CHECK(header.find(fmt::format("Field {} = {{{:#x}, {}, {}}};", f.name, jf.at("offset").get<unsigned>(),
                                    jf.at("lsb").get<int>(), jf.at("width").get<int>())) != std::string::npos);
    }
  CHECK(a.at("fields").size() == fields);

  // The core top's configuration has no AXI part.
  const hdl::RtlContext core(isa, hdl::RtlOptions{});
  CHECK_FALSE(nlohmann::json::parse(sim::cocotb_config_json(core)).contains("axi"));
}
