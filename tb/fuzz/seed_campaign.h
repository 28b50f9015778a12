/// @file seed_campaign.h
/// @brief The campaign loop of the system node's fuzzers (`tpugen mover
/// fuzz`, `tpugen agent fuzz`): seeds first_seed .. first_seed + count - 1
/// shared out to `jobs` threads, each case run outside the lock with the
/// thread's own coverage, its outcome tallied under the lock, a failure
/// reported (and, for the first max_repros, shrunk into a reproducer by the
/// caller) under the lock; the first failure stops the campaign unless
/// keep_going, the first error (an Error thrown by a run) always does and is
/// thrown again, with its seed, once every thread has stopped.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "util/diag.h"

namespace tpugen::fuzz {

struct SeedCampaignOptions {
  std::uint64_t first_seed = 1, count = 0;
  unsigned jobs = 0;  ///< threads (0: the machine's cores)
  bool keep_going = false;
  std::size_t max_repros = 3;
  std::string error_rule;  ///< the rule of the Error a run's error is thrown again as
};

struct SeedCampaignResult {
  std::uint64_t ran = 0;
  std::vector<std::uint64_t> failed;  ///< in seed order
};

/// `fresh()` makes an empty coverage (a value with merge(const Coverage&));
/// `run(seed, coverage)` runs one case into the thread's coverage and gives
/// its outcome (a value with a `failure` string, empty when it agreed);
/// `tally(outcome)` and `on_failure(seed, outcome, reproduce)` run under
/// the lock. The threads' coverage is merged into `coverage`.
template <typename Coverage, typename Fresh, typename Run, typename Tally, typename OnFailure>
SeedCampaignResult run_seed_campaign(const SeedCampaignOptions& o, Coverage& coverage, Fresh&& fresh, Run&& run,
                                     Tally&& tally, OnFailure&& on_failure) {
  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::mutex lock;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> stop{false};
  SeedCampaignResult r;
  std::size_t repros = 0;
  std::string first_error;
  auto worker = [&] {
    Coverage mine = fresh();
    for (std::uint64_t i = next++; i < o.count && !stop; i = next++) {
      const std::uint64_t seed = o.first_seed + i;
      decltype(run(seed, mine)) outcome;
      try {
        outcome = run(seed, mine);
      } catch (const Error& e) {
        const std::lock_guard<std::mutex> g(lock);
        if (first_error.empty()) first_error = fmt::format("case {}: {}", seed, e.what());
        stop = true;
        break;
      }
      const std::lock_guard<std::mutex> g(lock);
      ++r.ran;
      tally(outcome);
      if (outcome.failure.empty()) continue;
      r.failed.push_back(seed);
      if (!o.keep_going) stop = true;
      const bool reproduce = repros < o.max_repros;
      if (reproduce) ++repros;
      on_failure(seed, outcome, reproduce);
    }
    const std::lock_guard<std::mutex> g(lock);
    coverage.merge(mine);
  };
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < std::min<std::uint64_t>(jobs, std::max<std::uint64_t>(1, o.count)); ++j)
    pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (!first_error.empty()) throw Error(o.error_rule, first_error);
  std::sort(r.failed.begin(), r.failed.end());
  return r;
}

}  // namespace tpugen::fuzz
