// tpugen asm | disasm | check: assembly <-> images, and the contract checker.
#include <fmt/format.h>

#include <filesystem>

#include "cli/cli.h"
#include "isa/assembler.h"
#include "isa/check.h"
#include "isa/image.h"

namespace tpugen::cli {

namespace {
/// The file a subcommand reads, and (asm) the one it writes.
struct FileOpts {
  std::string in, out;
};

bool is_hex_path(const std::string& p) {
  const auto ext = std::filesystem::path(p).extension().string();
  return ext == ".hex" || ext == ".mem";
}

void print_header(const Isa& isa, const std::vector<std::int64_t>& counts) {
  const Spec& spec = isa.spec();
  for (std::size_t e = 0; e < spec.header.size(); ++e)
    fmt::print("# imem[{}][{}:{}] {:<16} = {}\n", spec.header[e].word, spec.header[e].lsb + spec.header[e].width - 1,
               spec.header[e].lsb, spec.header[e].name, counts[e]);
}
}  // namespace

Command asm_command() {
  return param_command<FileOpts>("asm",
          [](CLI::App& sub, FileOpts& o) {
            sub.add_option("source", o.in, "assembly source")->required();
            sub.add_option("-o,--out", o.out, "the image (default: the source with .bin); .hex or .mem writes hex");
          },
          [](Context& ctx, FileOpts& o) {
            const Isa isa = ctx.isa();
            const Program p = parse_assembly_file(isa, o.in);
            const CheckResult r = check_program(isa, p);
            if (!r.ok()) {
              fmt::print(stderr, "{}", r.report(o.in));
              fmt::print(stderr, "tpugen: {} contract violation(s); nothing written\n", r.violations.size());
              return kFail;
            }
            const auto words = encode_image(isa, p);
            std::string path = o.out;
            if (path.empty()) path = std::filesystem::path(o.in).replace_extension(".bin").string();
            if (is_hex_path(path)) write_image_hex(path, words);
            else write_image_bin(path, words);
            fmt::print("{}: {} instructions, {} issues, {} words -> {}\n", o.in, p.instrs.size(), r.issues.size(),
                       words.size(), path);
            print_header(isa, r.header);
            return kOk;
          });
}

Command disasm_command() {
  return param_command<FileOpts>("disasm",
          [](CLI::App& sub, FileOpts& o) {
            sub.add_option("image", o.in, "program image")->required()->check(CLI::ExistingFile);
          },
          [](Context& ctx, FileOpts& o) {
            const Isa isa = ctx.isa();
            const auto words = read_image(o.in);
            const Program p = decode_image(isa, words, o.in);
            fmt::print("# {}: {} instructions\n", o.in, p.instrs.size());
            print_header(isa, unpack_header(isa, words));
            fmt::print("{}", disassemble(isa, p));
            return kOk;
          });
}

Command check_command() {
  return param_command<FileOpts>("check",
          [](CLI::App& sub, FileOpts& o) {
            sub.add_option("program", o.in, "assembly (.s .asm .tpu) or image (.bin .hex .mem)")->required();
          },
          [](Context& ctx, FileOpts& o) {
            const Isa isa = ctx.isa();
            const Program p = load_program(isa, o.in);
            CheckResult r = check_program(isa, p);
            const auto ext = std::filesystem::path(o.in).extension().string();
            if (ext == ".bin" || is_hex_path(o.in)) check_image(isa, read_image(o.in), p, r);
            if (!r.ok()) {
              fmt::print(stderr, "{}", r.report(o.in));
              fmt::print(stderr, "tpugen: {} contract violation(s)\n", r.violations.size());
              return kFail;
            }
            fmt::print("{}: {} instructions, {} issues: every contract holds\n", o.in, p.instrs.size(), r.issues.size());
            print_header(isa, r.header);
            return kOk;
          });
}

}  // namespace tpugen::cli
