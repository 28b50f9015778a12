#include <catch2/catch.hpp>

#include <map>

#include "test_support.h"

using namespace tpugen;
using tpugen::test::shipped_spec;

namespace {
EnvReader env_of(std::map<std::string, std::string> vars) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [held](const char* name) -> const char* {
    auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

std::int64_t ceiling(const char* name, std::int64_t t) {
  const Spec& s = shipped_spec();
  for (const auto& c : s.ceilings)
    if (c.name == name) return maxdim_ceiling(s, c, resolve_params(s, {{"T", t}}, nullptr)).value_or(-1);
  FAIL("no ceiling " << name);
  return -1;
}
}  // namespace

TEST_CASE("defaults resolve to the seed's values", "[params]") {
  const Params p = legal_params(shipped_spec());
  CHECK(p["T"] == 4);
  CHECK(p["MAXDIM"] == 64);
  CHECK(p["VW"] == 32);
  CHECK(p["AW"] == 128);
  CHECK(p["WPR"] == 16);
  CHECK(p["OPERAND_ROWS"] == 1024);
  CHECK(p["SPAD_ROWS"] == 1024);
  CHECK(p["NVR"] == 1024);
  CHECK(p["NAR"] == 136);
  CHECK(p["IMEM_SIZE"] == 56);
  CHECK(p["QD"] == 16);
  CHECK(p["DMA_WORDS"] == 1);
  CHECK(p["MAXROWS"] == 127);
  CHECK(p["COUNT_MAX"] == 32767);
  CHECK(p["NHDR"] == 8);
  CHECK(p.source("T") == "default");
  CHECK(p.source("WPR") == "derived");
}

TEST_CASE("a flag wins over the environment, which wins over the default", "[params]") {
  const Spec& s = shipped_spec();
  const auto env = env_of({{"TPU_T", "8"}, {"TPU_QD", "4"}});
  const Params from_env = resolve_params(s, {}, env);
  CHECK(from_env["T"] == 8);
  CHECK(from_env.source("T") == "env TPU_T");
  CHECK(from_env["QD"] == 4);
  CHECK(from_env["WPR"] == 8);
  const Params flagged = resolve_params(s, {{"T", 4}}, env);
  CHECK(flagged["T"] == 4);
  CHECK(flagged.source("T") == "flag");
  CHECK(flagged["QD"] == 4);
  // DMA_WIDEN switches the DMA_WORDS default to a full bus beat.
  CHECK(resolve_params(s, {}, env_of({{"TPU_DMA_WIDEN", "1"}}))["DMA_WORDS"] == 16);
  CHECK(resolve_params(s, {{"T", 8}, {"DMA_WIDEN", 1}}, nullptr)["DMA_WORDS"] == 8);
}

TEST_CASE("unreadable parameter input is refused, naming it", "[params]") {
  const Spec& s = shipped_spec();
  auto rule = [&](const ParamOverrides& o, const EnvReader& env) {
    try {
      (void)resolve_params(s, o, env);
    } catch (const Error& e) {
      return e.rule();
    }
    return std::string("none");
  };
  CHECK(rule({}, env_of({{"TPU_T", "eight"}})) == "params.env");
  CHECK(rule({{"NOPE", 1}}, nullptr) == "params.unknown");
  CHECK(rule({{"T", 0}}, nullptr) == "params.range");
  CHECK(rule({{"DMA_WIDEN", 2}}, nullptr) == "params.range");
}

TEST_CASE("the MAXDIM ceilings are computed over multiples of T", "[params]") {
  CHECK(ceiling("addressing", 4) == 88);
  CHECK(ceiling("cubic_header", 4) == 76);
  CHECK(ceiling("addressing", 8) == 128);
  CHECK(ceiling("cubic_header", 8) == 120);
}

TEST_CASE("constraints name what they refuse", "[params]") {
  const Spec& s = shipped_spec();
  auto violations = [&](const ParamOverrides& o) { return check_params(s, resolve_params(s, o, nullptr)); };
  CHECK(violations({}).empty());
  CHECK(violations({{"T", 8}, {"MAXDIM", 64}}).empty());
  CHECK(violations({{"T", 4}, {"MAXDIM", 16}}).empty());

  const auto at96 = violations({{"T", 4}, {"MAXDIM", 96}});
  REQUIRE_FALSE(at96.empty());
  bool names_ceiling = false;
  for (const auto& v : at96) names_ceiling |= v.message.find("addressing ceiling, which is 88 at T = 4") != std::string::npos;
  CHECK(names_ceiling);

  auto has = [](const std::vector<ParamViolation>& v, const std::string& text) {
    for (const auto& x : v)
      if (x.message.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(has(violations({{"T", 4}, {"MAXDIM", 18}}), "MAXDIM % T == 0"));
  CHECK(has(violations({{"IMEM_SIZE", 60}}), "IMEM_SIZE % 8 == 0"));
  CHECK(has(violations({{"NAR", 100}}), "NAR >= 2 * MAXDIM + 2"));
  CHECK(has(violations({{"SPAD_ROWS", 512}}), "SPAD_ROWS >= OPERAND_ROWS"));
  CHECK(has(at96, "SPAD_ROWS = 2304 is outside its legal range"));
  const Error e = test::error_of([&] { (void)legal_params(s, {{"T", 4}, {"MAXDIM", 96}}, nullptr); });
  CHECK(e.rule() == "params.constraint");
}
