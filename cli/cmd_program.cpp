// tpugen program: the program library as assembly or images.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "cli/cli.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"

namespace tpugen::cli {

namespace {
struct ProgramOpts {
  std::string which, shape = "16x16x16", form = "loop", out;
  bool relu = false, split = false, interleave = false;
  std::int64_t distance = -1, parts = 1;
};
}  // namespace

Command program_command() {
  return param_command<ProgramOpts>("program",
          [](CLI::App& sub, ProgramOpts& o) {
            sub.add_option("name", o.which, "gemm, vadd, vector or ar-distance")
                ->required()
                ->check(CLI::IsMember({"gemm", "vadd", "vector", "ar-distance"}));
            sub.add_option("--gemm", o.shape, "shape MxKxN for gemm and vadd")->capture_default_str();
            sub.add_flag("--relu", o.relu, "gemm: relu before mvout");
            sub.add_flag("--split-operand-load", o.split, "gemm: issue a load over MAXROWS rows as two");
            sub.add_flag("--interleave-loads", o.interleave,
                         "gemm: load B's first column block a k-tile at a time beside A's (a compute unit's order)");
            sub.add_option("--last-strip-parts", o.parts,
                           "gemm: compute the last column strip in this many groups of rows (a divisor of M)")
                ->capture_default_str()
                ->check(CLI::PositiveNumber);
            sub.add_option("--form", o.form, "gemm: loop (the loop-nest builder), handwritten or flat")->capture_default_str()
                ->check(CLI::IsMember({"loop", "handwritten", "flat"}));
            sub.add_option("--distance", o.distance, "ar-distance: the accu distance (default AR_RAW_DIST)");
            sub.add_option("-o,--out", o.out, "write .s (assembly), .bin or .hex (image); default: assembly on stdout");
          },
          [](Context& ctx, ProgramOpts& o) {
            const Isa isa = ctx.isa();
            Program p;
            if (o.which == "gemm") {
              const GemmShape s = parse_shape(o.shape);
              GemmOptions opt{o.relu, o.split};
              opt.interleave_loads = o.interleave;
              opt.last_strip_parts = o.parts;
              p = o.form == "flat" ? gemm_program_flat(isa, s, opt)
                  : o.form == "handwritten" ? gemm_program_handwritten(isa, s, opt)
                                             : gemm_program(isa, s, opt);
            } else if (o.which == "vadd") {
              p = vadd_program(isa, parse_shape(o.shape));
            } else if (o.which == "vector") {
              p = vector_program(isa);
            } else {
              p = ar_distance_program(isa, o.distance >= 0 ? o.distance : isa.param("AR_RAW_DIST"));
            }
            const CheckResult r = check_program(isa, p);
            if (!r.ok()) {
              fmt::print(stderr, "{}", r.report(p.source));
              return kFail;
            }
            const auto ext = std::filesystem::path(o.out).extension().string();
            if (o.out.empty()) {
              fmt::print("# {}\n{}", p.source, disassemble(isa, p));
            } else if (ext == ".s" || ext == ".asm" || ext == ".tpu") {
              std::ofstream f(o.out);
              f << "# " << p.source << "\n" << disassemble(isa, p);
              if (!f) throw Error("cli.io", fmt::format("cannot write '{}'", o.out), SourceLoc{o.out});
            } else if (ext == ".hex" || ext == ".mem") {
              write_image_hex(o.out, encode_image(isa, p));
            } else {
              write_image_bin(o.out, encode_image(isa, p));
            }
            if (!o.out.empty())
              fmt::print("{}: {} instructions, {} issues -> {}\n", p.source, p.instrs.size(), r.issues.size(), o.out);
            return kOk;
          });
}

}  // namespace tpugen::cli
