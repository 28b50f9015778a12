#include "isa/image.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "isa/derive.h"
#include "util/bits.h"

namespace tpugen {

std::vector<std::int64_t> header_counts(const Isa& isa, const Program& program, const std::vector<Issue>& issues) {
  const Spec& spec = isa.spec();
  std::vector<std::int64_t> counts(spec.header.size(), 0);
  for (std::size_t e = 0; e < spec.header.size(); ++e) {
    const HeaderCount& c = spec.header[e].count;
    if (c.kind == HeaderCount::Static) counts[e] = static_cast<std::int64_t>(program.instrs.size());
  }
  for (const Issue& is : issues) {
    const Opcode& op = *is.opcode;
    for (std::size_t e = 0; e < spec.header.size(); ++e) {
      const HeaderCount& c = spec.header[e].count;
      switch (c.kind) {
        case HeaderCount::Static:
          break;
        case HeaderCount::UnitSteps:
          counts[e] += unit_cost(isa, op, c.unit, is.fields);
          break;
        case HeaderCount::PortItems:
          counts[e] += port_items(isa, op, c.unit, c.port, is.fields);
          break;
        case HeaderCount::StateSpan:
          for (const Action* a : active_actions(isa, op, is.fields))
            if (a->kind == ActionKind::Read && a->state == c.state)
              counts[e] = std::max(counts[e], isa.operand(Instr{is.fields, {}, 0}, op, a->base) +
                                                  action_items(isa, *a, op, is.fields));
          break;
      }
    }
  }
  return counts;
}

std::vector<std::uint64_t> pack_header(const Isa& isa, const std::vector<std::int64_t>& counts) {
  const Spec& spec = isa.spec();
  std::vector<std::uint64_t> words(static_cast<std::size_t>(spec.nhdr), 0);
  for (std::size_t e = 0; e < spec.header.size(); ++e) {
    const HeaderEntry& h = spec.header[e];
    if (counts[e] < 0 || counts[e] > h.usable_max)
      throw Error("header.overflow",
                  fmt::format("header count {} = {} does not fit its {}-bit slice imem[{}][{}:{}] (0 .. {})", h.name,
                              counts[e], h.width, h.word, h.lsb + h.width - 1, h.lsb, h.usable_max));
    words[static_cast<std::size_t>(h.word)] |= static_cast<std::uint64_t>(counts[e]) << h.lsb;
  }
  return words;
}

std::vector<std::int64_t> unpack_header(const Isa& isa, std::span<const std::uint64_t> words) {
  const Spec& spec = isa.spec();
  if (words.size() < static_cast<std::size_t>(spec.nhdr))
    throw Error("image.truncated", fmt::format("an image needs {} header words; this one has {}", spec.nhdr, words.size()));
  std::vector<std::int64_t> out;
  for (const auto& h : spec.header) {
    out.push_back(static_cast<std::int64_t>((words[static_cast<std::size_t>(h.word)] >> h.lsb) & low_mask(h.width)));
  }
  return out;
}

std::vector<std::uint64_t> encode_image(const Isa& isa, const Program& program) {
  const auto issues = expand(isa, program);
  std::vector<std::uint64_t> words = pack_header(isa, header_counts(isa, program, issues));
  for (const Instr& in : program.instrs) {
    const auto w = isa.encode(in);
    words.insert(words.end(), w.begin(), w.end());
  }
  const std::int64_t imem = isa.param("IMEM_SIZE");
  if (static_cast<std::int64_t>(words.size()) > imem)
    throw Error("image.imem_size", fmt::format("the image is {} words; IMEM_SIZE is {}", words.size(), imem),
                SourceLoc{program.source});
  return words;
}

Program decode_image(const Isa& isa, std::span<const std::uint64_t> words, std::string source) {
  const Spec& spec = isa.spec();
  if (words.size() < static_cast<std::size_t>(spec.nhdr))
    throw Error("image.truncated",
                fmt::format("an image needs {} header words; this one has {}", spec.nhdr, words.size()),
                SourceLoc{source});
  const auto counts = unpack_header(isa, words);
  std::int64_t n = -1;
  for (std::size_t e = 0; e < spec.header.size(); ++e)
    if (spec.header[e].count.kind == HeaderCount::Static) n = counts[e];
  if (n < 0) throw Error("image.format", "the spec's header has no static instruction count");
  const std::size_t need = static_cast<std::size_t>(spec.nhdr) + static_cast<std::size_t>(n) * static_cast<std::size_t>(spec.iwords);
  if (words.size() < need)
    throw Error("image.truncated",
                fmt::format("the header promises {} instructions ({} words) but the image has {} words", n, need, words.size()),
                SourceLoc{source});
  Program p;
  p.source = std::move(source);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::size_t at = static_cast<std::size_t>(spec.nhdr) + static_cast<std::size_t>(i) * static_cast<std::size_t>(spec.iwords);
    p.instrs.push_back(isa.decode(words.subspan(at, static_cast<std::size_t>(spec.iwords))));
  }
  return p;
}

void write_image_bin(const std::string& path, std::span<const std::uint64_t> words) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("image.io", fmt::format("cannot write '{}'", path), SourceLoc{path});
  for (std::uint64_t w : words)
    for (int b = 0; b < 8; ++b) out.put(static_cast<char>((w >> (8 * b)) & 0xff));
  if (!out) throw Error("image.io", fmt::format("error writing '{}'", path), SourceLoc{path});
}

void write_image_hex(const std::string& path, std::span<const std::uint64_t> words) {
  std::ofstream out(path);
  if (!out) throw Error("image.io", fmt::format("cannot write '{}'", path), SourceLoc{path});
  for (std::uint64_t w : words) out << fmt::format("{:016x}\n", w);
  if (!out) throw Error("image.io", fmt::format("error writing '{}'", path), SourceLoc{path});
}

std::vector<std::uint64_t> read_image_bin(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("image.io", fmt::format("cannot read '{}'", path), SourceLoc{path});
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  if (bytes.size() % 8 != 0)
    throw Error("image.format", fmt::format("'{}' is {} bytes, not a whole number of 64-bit words", path, bytes.size()),
                SourceLoc{path});
  std::vector<std::uint64_t> words(bytes.size() / 8, 0);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    words[i / 8] |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * (i % 8));
  return words;
}

std::vector<std::uint64_t> read_image_hex(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("image.io", fmt::format("cannot read '{}'", path), SourceLoc{path});
  std::vector<std::uint64_t> words;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (auto c = line.find("//"); c != std::string::npos) line.resize(c);
    std::istringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      if (tok[0] == '@')
        throw Error("image.format", "address directives (@) are not supported in program images", SourceLoc{path, lineno});
      if (tok.size() > 16 || tok.find_first_not_of("0123456789abcdefABCDEF_") != std::string::npos)
        throw Error("image.format", fmt::format("'{}' is not a 64-bit hex word", tok), SourceLoc{path, lineno});
      std::string digits;
      for (char ch : tok)
        if (ch != '_') digits += ch;
      if (digits.empty()) throw Error("image.format", fmt::format("'{}' is not a 64-bit hex word", tok), SourceLoc{path, lineno});
      words.push_back(std::stoull(digits, nullptr, 16));
    }
  }
  return words;
}

std::vector<std::uint64_t> read_image(const std::string& path) {
  auto ends_with = [&](std::string_view s) { return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0; };
  if (ends_with(".hex") || ends_with(".mem")) return read_image_hex(path);
  return read_image_bin(path);
}

}  // namespace tpugen
