// tpugen noc fuzz: random cases on the RTL and the delivery model, which must
// agree; a failing case shrinks to a reproducer with its replay command.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/noc_commands.h"
#include "fuzz/noc/noc_campaign.h"
#include "hdl/noc/noc_context.h"
#include "model/noc/mesh_model.h"
#include "sim/noc_engine.h"
#include "util/file_io.h"
#include "util/names.h"
#include "util/rng.h"

namespace tpugen::cli {

namespace {

/// One fabric's share of a campaign. Returns the failures found.
int fuzz_fabric(const NocSpec& spec, const NocParams& params, const std::string& inject_bug, const NocFuzzOpts& f,
                std::uint64_t first_seed, std::uint64_t count, const std::string& command) {
  const hdl::NocContext nctx(spec, params, inject_bug);
  const noc::Mesh mesh = nctx.mesh();
  const noc::Codec& codec = nctx.codec();
  const auto sim = sim::ensure_noc_simulator(nctx, f.rtl.cache_root(), print_build_progress, {.opt_level = f.sim_opt});
  const noc::NocEngine rtl = [&](const std::vector<noc::Injection>& t, const noc::RunConditions& c) {
    return sim::run_noc_rtl(sim, codec, mesh, t, c, {});
  };
  const noc::NocEngine model = [&](const std::vector<noc::Injection>& t, const noc::RunConditions& c) {
    return noc::run_mesh_model(spec, params, t, c);
  };
  std::string fabric;
  for (const auto& [name, v] : params.listing()) fabric += fmt::format(" --{} {}", kebab(name), v);
  int failures = 0;
  std::uint64_t flits = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    Rng rng(first_seed + i);
    noc::NocCase c = noc::random_case(rng, mesh, f.max_packets);
    c.conditions.max_cycles = f.rtl.max_cycles;
    const auto traffic = noc::generate_traffic(codec, mesh, c.traffic);
    flits += traffic.size();
    const noc::NocVerdict v = noc::judge(codec, mesh, traffic, c.conditions, rtl, model);
    if (!v.failed()) continue;
    ++failures;
    fmt::print("case {} ({}x{}, {} at {}, {} flits, ejection busy {}): FAIL {}\n", first_seed + i, mesh.nx, mesh.ny,
               c.traffic.pattern, c.traffic.rate, traffic.size(), c.conditions.eject_busy, v.failure);
    noc::NocShrunk s{traffic, c.conditions, v, 0};
    if (!f.no_shrink) s = noc::shrink_flits(codec, mesh, traffic, c.conditions, rtl, model);
    const std::filesystem::path dir = std::filesystem::path(f.out) / fmt::format("case_{}", first_seed + i);
    std::filesystem::create_directories(dir);
    write_file(dir / "flits.jsonl", noc::injections_jsonl(codec, mesh, s.flits), "cli.io");
    const std::string replay =
        fmt::format("tpugen noc run{} --inject {} --backpressure {} --seed {} --engine both{}", fabric,
                    (dir / "flits.jsonl").string(), s.conditions.eject_busy, s.conditions.seed,
                    inject_bug.empty() ? "" : " --inject-bug " + inject_bug);
    nlohmann::ordered_json j;
    j["command"] = command;
    j["case_seed"] = first_seed + i;
    j["pattern"] = c.traffic.pattern;
    j["rate"] = c.traffic.rate;
    j["flits"] = traffic.size();
    j["failure"] = v.failure;
    j["shrunk_flits"] = s.flits.size();
    j["shrunk_failure"] = s.verdict.failure;
    j["shrink_runs"] = s.runs;
    j["replay"] = replay;
    write_file(dir / "case.json", j.dump(2) + "\n", "cli.io");
    write_file(dir / "replay.sh", "#!/bin/sh\n" + replay + "\n", "cli.io");
    fmt::print("  shrunk to {} flit(s) in {} runs: {}\n  reproducer: {}\n  replay: {}\n", s.flits.size(), s.runs,
               s.verdict.failure, dir.string(), replay);
    if (!f.keep_going) break;
  }
  fmt::print("tpugen noc fuzz: {}x{} mesh (DEPTH {}, {}): {} case(s), {} flits, {} failure(s)\n", mesh.nx, mesh.ny,
             params.depth(), params.routing(), count, flits, failures);
  return failures;
}

}  // namespace

int run_noc_fuzz(const NocSpec& spec, const NocOpts& o, const NocFuzzOpts& f, const std::string& command) {
  int failures = 0;
  if (f.configs <= 0) {
    failures = fuzz_fabric(spec, resolve_noc_params(spec, o.params), o.inject_bug, f, f.seed, f.count, command);
  } else {
    // Random fabrics: small meshes of every shape (lines included) and FIFO
    // depths from the shallowest up, each built once and given its share of the cases.
    Rng rng(f.seed ^ 0x6e6f63ULL);
    static const std::vector<std::string> depths = {"2", "3", "4", "8", "32"};
    for (int k = 0; k < f.configs && (failures == 0 || f.keep_going); ++k) {
      std::map<std::string, std::string> p = o.params;
      p["NX"] = std::to_string(rng.uniform(1, 5));
      p["NY"] = std::to_string(rng.uniform(1, 5));
      p["DEPTH"] = rng.pick(depths);
      const std::uint64_t share = f.count / static_cast<std::uint64_t>(f.configs) + 1;
      failures += fuzz_fabric(spec, resolve_noc_params(spec, p), o.inject_bug, f, f.seed + share * k, share, command);
    }
  }
  fmt::print("result:  {}\n", failures == 0 ? "PASS  every case delivered whole, in order, and RTL == model"
                                            : fmt::format("FAIL  {} failing case(s); reproducers under {}", failures, f.out));
  return failures == 0 ? kOk : kFail;
}

}  // namespace tpugen::cli
