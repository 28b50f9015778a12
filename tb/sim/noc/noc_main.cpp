// noc_sim: a generated NoC mesh (tpu_noc_mesh, behind the registered inputs
// of tpu_noc_mesh_sim.sv) under Verilator, driven by a traffic file tpugen
// writes and logging every acceptance and ejection for tpugen's scoreboard
// (tb/model/noc/scoreboard.h). The harness decides nothing: it offers each
// node's flits in order from their cycle on, applies the ejection ports'
// random busy (tb/model/noc/eject_busy.h, the same pattern as the delivery
// model's), and stops when every flit is in and as many are out, when no flit
// moves for --watchdog cycles (naming the routers and ports holding flits,
// from the mesh's wait_o), or at --max-cycles.
// The files are described in noc_wire.h.
#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "model/noc/eject_busy.h"
#include "noc_config.h"
#include "sim/harness/numbers.h"
#include "sim/harness/ports.h"
#include "sim/noc/noc_wire.h"

namespace {

using namespace tpusim::sim;
constexpr int kWords = (noc_config::kFlitBits + 63) / 64;
constexpr int kExitDone = 0, kExitFail = 1, kExitUsage = 2;

const char* kUsage =
    "usage: noc_sim --traffic FILE --log FILE [--busy THRESHOLD] [--seed N] [--max-cycles N]\n"
    "               [--watchdog N] [--trace FILE.fst]\n"
    "  --traffic     the flits to offer (noc_wire.h)\n"
    "  --log         where the events go (noc_wire.h)\n"
    "  --busy        an ejection port is busy in a cycle when its draw is below this (0: never)\n"
    "  --seed        of the busy pattern and of the random initial state (default 1)\n"
    "  --max-cycles  stop here (default 1000000)\n"
    "  --watchdog    stop after this many cycles with flits in flight and none in or out (default 2000)\n"
    "  --trace       write an FST waveform\n";

struct Usage {
  std::string message;
};

struct Options {
  std::string traffic, log, trace;
  std::uint64_t busy = 0, seed = 1, max_cycles = 1000000, watchdog = 2000;
};

std::uint64_t parse_u64(const std::string& flag, const std::string& v) {
  if (const auto x = tpusim::sim::parse_u64(v)) return *x;
  throw Usage{flag + " takes a non-negative integer, not '" + v + "'"};
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag.rfind("+verilator", 0) == 0) continue;
    if (flag == "--help" || flag == "-h") throw Usage{};
    if (i + 1 >= argc) throw Usage{flag + " needs a value"};
    const std::string v = argv[++i];
    if (flag == "--traffic") o.traffic = v;
    else if (flag == "--log") o.log = v;
    else if (flag == "--trace") o.trace = v;
    else if (flag == "--busy") o.busy = parse_u64(flag, v);
    else if (flag == "--seed") o.seed = parse_u64(flag, v);
    else if (flag == "--max-cycles") o.max_cycles = parse_u64(flag, v);
    else if (flag == "--watchdog") o.watchdog = parse_u64(flag, v);
    else throw Usage{"unknown option " + flag};
  }
  if (o.traffic.empty() || o.log.empty()) throw Usage{"--traffic and --log are required"};
  return o;
}

struct Flit {
  std::uint64_t w[kWords];
};

struct Injection {
  std::uint64_t cycle = 0;
  std::uint64_t index = 0;
  Flit flit{};
};

/// One node's injections in order, and the next one to offer.
struct Queue {
  std::vector<Injection> items;
  std::size_t next = 0;
  [[nodiscard]] bool empty() const { return next == items.size(); }
  [[nodiscard]] const Injection& front() const { return items[next]; }
};

/// Per node, its injections in order.
std::vector<Queue> read_traffic(const std::string& path, std::uint64_t& total) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Usage{"cannot read '" + path + "'"};
  char magic[8];
  std::uint64_t count = 0, words = 0;
  f.read(magic, 8);
  f.read(reinterpret_cast<char*>(&count), 8);
  f.read(reinterpret_cast<char*>(&words), 8);
  if (!f || std::memcmp(magic, tpusim::noc_wire::kTrafficMagic, 8) != 0 || words != kWords)
    throw Usage{"'" + path + "' is not a traffic file for " + std::to_string(noc_config::kFlitBits) + "-bit flits"};
  constexpr std::size_t kRecord = 2 + kWords;  // cycle, node, the flit's words
  std::vector<std::uint64_t> records;
  if (count > (std::uint64_t{1} << 40) / (8 * kRecord)) throw Usage{"'" + path + "' claims too many injections"};
  records.resize(static_cast<std::size_t>(count) * kRecord);
  f.read(reinterpret_cast<char*>(records.data()), static_cast<std::streamsize>(8 * records.size()));
  if (!f) throw Usage{"'" + path + "' is cut short: it does not hold the " + std::to_string(count) + " injections it claims"};
  std::vector<Queue> queues(noc_config::kNodes);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t* r = &records[static_cast<std::size_t>(i) * kRecord];
    if (r[1] >= static_cast<std::uint64_t>(noc_config::kNodes))
      throw Usage{"'" + path + "': injection " + std::to_string(i) + " names no node"};
    Injection in;
    in.cycle = r[0];
    in.index = i;
    std::memcpy(in.flit.w, r + 2, 8 * kWords);
    queues[r[1]].items.push_back(in);
  }
  total = count;
  return queues;
}

/// The log's records (noc_wire.h), gathered in memory and written a couple
/// of megabytes at a time: a 4 x 4 mesh at full load logs about two dozen
/// records a cycle, and one fwrite each cost about a tenth of the run.
class Log {
 public:
  explicit Log(const std::string& path) : f_(std::fopen(path.c_str(), "wb")), words_(kBufferWords) {
    if (!f_) throw Usage{"cannot write '" + path + "'"};
  }
  Log(const Log&) = delete;
  Log& operator=(const Log&) = delete;
  ~Log() {
    flush();
    std::fclose(f_);
  }

  void record(tpusim::noc_wire::Event tag, std::uint64_t a, std::uint64_t b) {
    std::uint64_t* r = next(3);
    r[0] = tag;
    r[1] = a;
    r[2] = b;
  }
  /// An Eject record: where its flit's kWords words go (the caller writes
  /// them straight from the port, with no copy between).
  std::uint64_t* eject(std::uint64_t cycle, std::uint64_t node) {
    std::uint64_t* r = next(3 + kWords);
    r[0] = tpusim::noc_wire::kEject;
    r[1] = cycle;
    r[2] = node;
    return r + 3;
  }
  void end(tpusim::noc_wire::Status status, std::uint64_t cycles, std::uint64_t nanos) {
    std::uint64_t* r = next(4);
    r[0] = tpusim::noc_wire::kEnd;
    r[1] = status;
    r[2] = cycles;
    r[3] = nanos;
    flush();
  }

 private:
  static constexpr std::size_t kBufferWords = std::size_t{1} << 18;
  /// Room for a record of `n` words (n is at most 4 + kWords): the buffer
  /// is written out first when it has less.
  std::uint64_t* next(std::size_t n) {
    if (used_ + n > words_.size()) flush();
    std::uint64_t* r = words_.data() + used_;
    used_ += n;
    return r;
  }
  void flush() {
    if (used_ != 0) std::fwrite(words_.data(), 8, used_, f_);
    used_ = 0;
  }
  std::FILE* f_;
  std::vector<std::uint64_t> words_;
  std::size_t used_ = 0;
};

int run(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  std::uint64_t total = 0;
  auto queues = read_traffic(o.traffic, total);
  Log log(o.log);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(o.seed % 2147483646ULL) + 1);
  ctx->fatalOnError(false);  // an assertion ends the run with its status, not an abort
#if VM_TRACE_FST
  if (!o.trace.empty()) ctx->traceEverOn(true);
#else
  if (!o.trace.empty()) throw Usage{"this simulator was built without --trace-fst"};
#endif
  auto dut = std::make_unique<noc_config::Dut>(ctx.get());
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst;
  if (!o.trace.empty()) {
    fst = std::make_unique<VerilatedFstC>();
    dut->trace(fst.get(), 99);
    fst->open(o.trace.c_str());
  }
#endif
  // The top is tpu_noc_mesh_sim: the mesh behind a register on each input,
  // so what the harness drives during cycle c is the mesh's input in cycle
  // c + 1. Each cycle: one eval with the clock low (no logic of the mesh
  // depends on the inputs, so it costs next to nothing; Verilator needs it
  // to see the next edge), the cycle's handshakes read from the mesh's
  // registered outputs and the inputs the harness drove for it, the next
  // cycle's inputs driven, and one eval at the rising edge.
  std::uint64_t time = 0;
  auto dump = [&]() {
#if VM_TRACE_FST
    if (fst) fst->dump(time);
#endif
    ++time;
  };
  auto rise = [&]() {
    dut->clk_i = 1;
    dut->eval();
    dump();
    dut->clk_i = 0;
  };

  using namespace tpusim::noc_wire;
  // offered[n], ready[n]: what node n's local port sees in the cycle driven
  // last (an offer of queues[n].front(), the ejection port not busy);
  // driven[n]: the injection whose flit is on the input (its words are
  // written once, when its offer begins).
  std::vector<char> offered(noc_config::kNodes, 0), ready(noc_config::kNodes, 0);
  std::vector<std::uint64_t> driven(noc_config::kNodes, ~std::uint64_t{0});
  auto drive = [&](std::uint64_t c) {
    for (int n = 0; n < noc_config::kNodes; ++n) {
      const bool offer = !queues[n].empty() && queues[n].front().cycle <= c;
      if (offer && driven[n] != queues[n].front().index) {
        set_slice(dut->inject_flit_i, n * noc_config::kFlitBits, queues[n].front().flit.w, noc_config::kFlitBits);
        driven[n] = queues[n].front().index;
      }
      offered[n] = offer;
      ready[n] = !tpugen::noc::eject_busy(o.seed, n, c, o.busy);
      set_bit(dut->inject_valid_i, n, offer);
      set_bit(dut->eject_ready_i, n, ready[n] != 0);
    }
  };

  dut->clk_i = 0;
  dut->rst_ni = 0;
  for (int n = 0; n < noc_config::kNodes; ++n) {
    set_bit(dut->inject_valid_i, n, false);
    set_bit(dut->eject_ready_i, n, true);
  }
  for (int i = 0; i < 3; ++i) {
    if (i == 2) drive(0);  // the last reset edge loads cycle 0's inputs
    dut->eval();
    dump();
    rise();
  }
  dut->rst_ni = 1;

  std::uint64_t accepted = 0, ejected = 0, idle = 0, cycle = 0;
  Status status = kTimeout;
  const auto t0 = std::chrono::steady_clock::now();
  for (; cycle < o.max_cycles; ++cycle) {
    dut->eval();
    dump();
    if (ctx->gotError() || ctx->gotFinish()) {
      status = kAssertion;
      break;
    }
    bool moved = false;
    for (int n = 0; n < noc_config::kNodes; ++n) {
      if (offered[n] && get_bit(dut->inject_ready_o, n)) {
        log.record(kAccept, queues[n].front().index, cycle);
        ++queues[n].next;
        ++accepted;
        moved = true;
      }
      if (ready[n] && get_bit(dut->eject_valid_o, n)) {
        get_slice(dut->eject_flit_o, n * noc_config::kFlitBits, log.eject(cycle, static_cast<std::uint64_t>(n)),
                  noc_config::kFlitBits);
        ++ejected;
        moved = true;
      }
    }
    drive(cycle + 1);
    rise();
    if (ctx->gotError() || ctx->gotFinish()) {
      status = kAssertion;
      ++cycle;
      break;
    }
    if (accepted == total && ejected == accepted) {
      status = kDone;
      ++cycle;
      break;
    }
    idle = (moved || accepted == ejected) ? 0 : idle + 1;
    if (idle >= o.watchdog) {
      status = kStalled;
      ++cycle;
      for (int n = 0; n < noc_config::kNodes; ++n) {
        for (int p = 0; p < noc_config::kPorts; ++p)
          if (get_bit(dut->wait_o, static_cast<unsigned>(n * noc_config::kPorts + p)))
            log.record(kStuck, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(p));
        for (int p = 0; p < noc_config::kPorts; ++p)
          if (get_bit(dut->hold_o, static_cast<unsigned>(n * noc_config::kPorts + p)))
            log.record(kHeld, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(p));
      }
      break;
    }
  }
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
  log.end(status, cycle, static_cast<std::uint64_t>(nanos.count()));
#if VM_TRACE_FST
  if (fst) fst->close();
#endif
  dut->final();
  return status == kDone ? kExitDone : kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Usage& e) {
    if (e.message.empty()) {
      std::fputs(kUsage, stdout);
      return kExitDone;
    }
    std::fprintf(stderr, "noc_sim: %s\n%s", e.message.c_str(), kUsage);
    return kExitUsage;
  }
}
