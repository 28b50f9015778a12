#include "cli/commands.h"

#include <fmt/format.h>

#include "docs/markdown.h"
#include "util/diag.h"

namespace tpugen::cli {

const std::vector<CommandDoc>& command_docs() {
  static const std::vector<CommandDoc> table = {
      {"params", "tpugen params",
       "Resolve the build parameters (flag > environment > default), the derived constants and the MAXDIM "
       "ceilings; exit 1 names a violated constraint.",
       "", "tpugen params --T 8 --maxdim 64", ""},
      {"limits", "tpugen limits --gemm MxKxN",
       "Which program limit refuses a GEMM shape, by how much, and whether the split-operand-load alternative "
       "fits (exit 0 fits as shipped, 3 fits only split, 1 does not fit).",
       "", "tpugen limits --T 8 --maxdim 128 --gemm 32x128x128", ""},
      {"asm", "tpugen asm FILE.s -o OUT.hex",
       "Assemble and check a program into an image: little-endian 64-bit words (.bin) or $readmemh hex (.hex).", "",
       "tpugen asm examples/asm/gemm_8x8x8.asm -o gemm.hex", "docs/assembly.md"},
      {"disasm", "tpugen disasm IMAGE",
       "Disassemble an image (.bin or .hex) into assembly, its header counts as comments.", "",
       "tpugen disasm gemm.hex", "docs/assembly.md"},
      {"check", "tpugen check FILE",
       "Check a program (assembly or image) against every contract of the spec, each violation with its "
       "instruction, line and rule.",
       "", "tpugen check my_program.s", ""},
      {"program", "tpugen program gemm|vadd|vector|ar-distance",
       "Emit a program of the library (gemm, vadd, vector, ar-distance) as assembly or an image.", "",
       "tpugen program gemm --gemm 16x16x16 --relu -o gemm.hex", ""},
      {"gen", "tpugen gen --out DIR",
       "Generate the SystemVerilog for one configuration (tpu_top, or tpu_axi_top with --top axi; --vpi adds a "
       "cocotb build).",
       "The compile order is files.f; params.json records the parameters and options.",
       "tpugen gen --T 8 --maxdim 64 --out rtl_t8\ntpugen gen --top axi --T 8 --maxdim 64 --out rtl_t8_axi",
       "docs/generating.md"},
      {"run", "tpugen run",
       "Run the shipped GEMM (or any program) on the model, the RTL or both and check C against clip(A @ B), bit "
       "for bit.",
       "", "tpugen run --engine both --T 8 --maxdim 64 --gemm 40x24x56 --a A.npy --b B.npy --c-out C.npy", ""},
      {"bench", "tpugen bench",
       "Run the shipped GEMM on the RTL over the original design's benchmark shapes: cycles, utilization of the "
       "peak and simulated cycles per second, beside the original's cycles.",
       "", "tpugen bench --json bench.json", "docs/performance.md"},
      {"fuzz", "tpugen fuzz",
       "Run random legal programs on the RTL and the model, compare C and the on-chip state bit for bit, and "
       "shrink each disagreement into a reproducer (--replay, coverage).",
       "A campaign is a pure function of the parameters and the seed range, so shards run anywhere.",
       "tpugen fuzz --T 8 --maxdim 64 --count 500 --seed 1000", "docs/fuzz.md"},
      {"synth", "tpugen synth --target T --out DIR",
       "Synthesize the configuration with Yosys for a target (generic, xilinx, ice40): the gates, estimates, Fmax "
       "(nextpnr-ice40) and the handoff files.",
       "The gates: no latch, no combinational loop, no undriven or multiply-driven net, memories inferred as RAM. "
       "The handoff: RTL, files.f, netlist, SDC/XDC, a Vivado script, a FuseSoC core, reports.",
       "tpugen synth --T 4 --maxdim 16 --target xilinx --out synth_t4", "docs/synth.md"},
      {"noc", "tpugen noc gen|run|fuzz|bench|synth|dispatch|gemm|cu-fuzz",
       "The NoC fabric of spec/noc.yaml: generate an NX x NY mesh of XY routers (proved deadlock-free), run "
       "traffic through the RTL and the cycle-exact delivery model, fuzz it, benchmark it, synthesize it; with "
       "--cores K, a system of TinyTPU compute units on it (spec/compute_units.yaml): generate it, dispatch CU_INST "
       "programs through its orchestrator, split a GEMM over its units, on the model, the RTL or both, stress their "
       "retirement with random programs, and benchmark one GEMM over 1, 2 and 4 units. See also "
       "docs/compute_units.md.",
       "gen writes tpu_noc_pkg, the router and tpu_noc_mesh (NX, NY 1 .. 16; --depth sets the input FIFOs), or "
       "with --cores K the system tpu_noc_cu_system. dispatch prints every retirement flit of a program; gemm checks "
       "C against clip(A @ B) and prints the cycles and the utilization of the K-core peak; cu-fuzz runs random CU_INST "
       "programs on every unit at once on the RTL and the model; bench --compute-units prints the multi-core GEMM "
       "table beside the standalone core. run "
       "scores every flit (lost, duplicated, reordered, corrupted) and takes --inject FILE of your own flits. fuzz "
       "shrinks a failing case to a reproducer. bench prints zero-load latency, saturation and the latency curves. "
       "synth runs tpugen synth's flow on the mesh, or with --router X,Y on that node's router alone.",
       "tpugen noc gen --nx 4 --ny 4 --out noc_4x4\ntpugen noc run --nx 4 --ny 4 --pattern transpose --rate 0.5 "
       "--packets 20000 --engine both\ntpugen noc bench --nx 4 --ny 4 --plot noc.png\n"
       "tpugen noc synth --nx 3 --ny 3 --router 1,1 --target xilinx --out noc_router",
       "docs/noc.md"},
      {"ime", "tpugen ime asm|disasm|run",
       "The SpacemiT matrix extension of spec/ime.yaml: assemble and disassemble programs in the seed's syntax "
       "(the smt.* instructions, the RVV subset and the host's scalar ones), check them on a profile, and run them "
       "on the bit-exact reference model.",
       "asm writes little-endian 32-bit words and, with --profile, names the line and rule of every illegal "
       "instruction. disasm writes a binary back as text that assembles to the same words. run plays the host "
       "core over a register image and a flat memory; an illegal instruction stops it with exit 1, the images "
       "holding the state before it. Bad input (an unknown mnemonic, a register out of range, an odd vd where the "
       "field holds even ones, a truncated binary, a register image of the wrong size) exits 2.",
       "tpugen ime asm examples/ime/vmadot_a60.s -o vmadot.bin --profile A60\ntpugen ime disasm vmadot.bin\n"
       "tpugen ime run --profile A60 --program vmadot.bin --mem-in a60_mem.bin --mem-out out.bin --json run.json",
       "docs/ime.md"},
      {"mover", "tpugen mover gen|run|fuzz|bench|synth",
       "The system node's memory mover of spec/system_node.yaml: generate its SystemVerilog, run a move (COPY, "
       "GATHER, GENERATE, FILL, XFORM over 6-D walkers with bounds) over a memory image on the bit-exact reference "
       "model, on the RTL under Verilator, or on both, compared; fuzz the RTL against the model with random moves, "
       "benchmark its bus utilization, synthesize it.",
       "gen writes tpu_mover_pkg (from the spec) and the hand-written mover (--rd-bursts, --wr-bursts, --read-ahead "
       "set its build parameters). run: MOVE.json names the fields as docs/system_node.md does; a key left out keeps "
       "its register's reset value. "
       "The image covers [--mem-base, --mem-base + its size); an access outside it is DECERR (fault 3). The report "
       "names the fault (0 none) and the words read and written; --engine rtl|both adds the RTL's cycles and bus "
       "utilization, with the AXI memory's --latency and --stall, and exits 1 on an AXI protocol error or an "
       "RTL/model difference. An unknown key or a value that does not fit its register field exits 2. fuzz runs "
       "--count random moves from --seed (every mode and fault, coverage with --coverage) and shrinks a "
       "disagreement into a reproducer with its replay command; bench prints the bench moves' cycles and the bus "
       "utilization at memory latency 0 and 50; synth runs tpugen synth's flow on tpu_noc_mover.",
       "tpugen mover gen --out mover\ntpugen mover run --move examples/mover/copy_2d.json --mem-base 0x10000 "
       "--mem-size 65536 --mem-out out.bin "
       "--json report.json\ntpugen mover run --move examples/mover/generate.json --engine both --latency 20 "
       "--stall 0.2\ntpugen mover fuzz --count 2000 --coverage\ntpugen mover bench",
       "docs/system_node.md"},
      {"agent", "tpugen agent gen|fuzz|bench|synth",
       "The system node's memory agent of spec/system_node.yaml: generate its SystemVerilog (MEM_PORTS NoC "
       "endpoints, plain and stream reads with multicast, writes reassembled per source, an ERROR flit for every bad "
       "input), fuzz the RTL under Verilator with random request mixes from several sources, flit by flit "
       "against one reference model a port, benchmark its throughput, synthesize it.",
       "gen writes tpu_agent_pkg (from the specs) and the hand-written agent (--mem-ports, --intake-depth, "
       "--wr-slots, --rd-bursts, --rd-burst-cap, --rd-words, --wr-bursts set its build parameters). fuzz runs --count "
       "random cases from --seed: each "
       "port's flits injected with random gaps, its output back-pressured, the AXI memory with latency, stalls and "
       "SLVERR / DECERR words; per (requesting source, destination) the flits must equal the model's, the counters "
       "and the memory image too, with no hang and no AXI protocol error. A disagreement shrinks (flits dropped) "
       "into a reproducer that --replay DIR runs again. bench runs four request mixes (a long stream, multicast, "
       "plain reads and writes from four sources) at memory latency 0 and 50 and prints their cycles and the "
       "busiest channel's utilization. synth runs tpugen synth's flow on tpu_noc_mem_agent.",
       "tpugen agent gen --mem-ports 2 --out agent\ntpugen agent fuzz --count 500 --seed 1 --mem-ports 2 "
       "--wr-slots 2\ntpugen agent fuzz --replay agent_fuzz_out/case_17\ntpugen agent bench",
       "docs/mem_agent.md"},
      {"sysnode", "tpugen sysnode gen|synth",
       "The whole system node: the memory agent and the memory mover, their AXI4 masters joined onto one port by an "
       "AXI4 multiplexer (IDs {master, id}): generate its SystemVerilog or synthesize it.",
       "The mover's build parameters are set by its flags (--rd-bursts, --wr-bursts, --read-ahead), the agent's with "
       "agent- before theirs (--agent-mem-ports, --agent-rd-bursts, ...). synth runs tpugen synth's flow on "
       "tpu_noc_system_node.",
       "tpugen sysnode gen --out sysnode\ntpugen sysnode synth --target xilinx --out sysnode_synth",
       "docs/system_node.md"},
      {"docs", "tpugen docs [--check]",
       "Write the documents generated from the specs (docs/isa.md, docs/axi_top.md, docs/ime_isa.md, the tables of "
       "docs/noc.md and docs/system_node.md) and README.md's command table, or with --check fail if any has "
       "drifted.",
       "", "tpugen docs --check", ""},
  };
  return table;
}

const CommandDoc& command_doc(std::string_view name) {
  for (const auto& d : command_docs())
    if (d.name == name) return d;
  throw Error("cli.internal", fmt::format("no subcommand '{}' in the command table (cli/commands.cpp)", name));
}

std::string command_footer(const CommandDoc& doc) {
  std::string o;
  if (!doc.details.empty()) o += std::string(doc.details) + "\n";
  std::string example(doc.example);
  for (std::size_t at = example.find('\n'); at != std::string::npos; at = example.find('\n', at + 1))
    example.replace(at, 1, "\n         ");
  return o + "Example: " + example;
}

std::string render_command_table() {
  Table t({"command", "what it does"});
  for (const auto& d : command_docs()) {
    std::string what(d.summary);
    if (!d.doc.empty()) what += fmt::format(" See [`{0}`]({0}).", d.doc);
    t.row({fmt::format("`{}`", d.usage), what});
  }
  return t.str();
}

std::string with_command_table(const std::string& readme, const std::string& path) {
  return replace_between_markers(readme, "<!-- the command table: written by `tpugen docs` from cli/commands.cpp -->",
                                 "<!-- end of the command table -->", "\n" + render_command_table(), path,
                                 "docs.readme");
}

}  // namespace tpugen::cli
