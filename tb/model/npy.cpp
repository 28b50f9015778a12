/// @file npy.cpp
/// @brief NumPy .npy files of int8 matrices.
///
/// Layout (numpy's format.py): the magic "\x93NUMPY", a major and a minor
/// version byte, the header length (2 bytes little-endian in 1.0, 4 bytes in
/// 2.0 and 3.0), the header (a Python dict literal; latin-1 in 1.0 and 2.0,
/// UTF-8 in 3.0), then the data. The header is parsed as a literal, not
/// matched as text, so spacing, quoting and trailing commas may vary.
#include "model/npy.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <variant>

#include "util/diag.h"

namespace tpugen {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(const std::string& rule, const std::string& path, const std::string& message) {
  throw Error(rule, fmt::format("{}: {}", path, message), SourceLoc{path});
}

/// A value of the header dict: a string, a boolean, an integer or a tuple of integers.
struct Literal {
  enum Kind { String, Bool, Int, Tuple } kind = String;
  std::string text;
  bool flag = false;
  std::int64_t number = 0;
  std::vector<std::int64_t> items;

  [[nodiscard]] std::string show() const {
    switch (kind) {
      case String:
        return "'" + text + "'";
      case Bool:
        return flag ? "True" : "False";
      case Int:
        return std::to_string(number);
      case Tuple: {
        std::string s = "(";
        for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + std::to_string(items[i]);
        return s + (items.size() == 1 ? ",)" : ")");
      }
    }
    return "";
  }
};

/// A parser for the one dict literal the header holds.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  std::map<std::string, Literal> dict() {
    std::map<std::string, Literal> out;
    expect('{');
    skip_space();
    while (peek() != '}') {
      const Literal key = value();
      if (key.kind != Literal::String) bad(fmt::format("a key must be a string, not {}", key.show()));
      expect(':');
      const Literal v = value();
      if (!out.emplace(key.text, v).second) bad(fmt::format("key '{}' appears twice", key.text));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != '}') {
        bad("expected ',' or '}' after a value");
      }
    }
    ++pos_;
    skip_space();
    if (pos_ != s_.size()) bad("text after the closing '}'");
    return out;
  }

 private:
  [[noreturn]] void bad(const std::string& what) const {
    fail("npy.header", path_, fmt::format("the header is not a valid dict literal: {} at offset {}", what, pos_));
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) bad(fmt::format("expected '{}'", c));
    ++pos_;
  }

  Literal value() {
    skip_space();
    const char c = peek();
    if (c == '\'' || c == '"') return string();
    if (c == '(' || c == '[') return tuple();
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
      Literal l;
      l.kind = Literal::Int;
      l.number = integer();
      return l;
    }
    for (const auto& [word, flag] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}}) {
      if (s_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        Literal l;
        l.kind = Literal::Bool;
        l.flag = flag;
        return l;
      }
    }
    bad("expected a string, a boolean, an integer or a tuple");
  }

  Literal string() {
    const char quote = s_[pos_++];
    Literal l;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      l.text += s_[pos_++];
    }
    if (pos_ >= s_.size()) bad("an unterminated string");
    ++pos_;
    return l;
  }

  std::int64_t integer() {
    skip_space();
    bool negative = false;
    if (peek() == '-' || peek() == '+') negative = s_[pos_++] == '-';
    if (!std::isdigit(static_cast<unsigned char>(peek()))) bad("expected an integer");
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int d = s_[pos_++] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) bad("an integer too large");
      v = v * 10 + d;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 long literals
    return negative ? -v : v;
  }

  Literal tuple() {
    const char close = s_[pos_++] == '(' ? ')' : ']';
    Literal l;
    l.kind = Literal::Tuple;
    skip_space();
    while (peek() != close) {
      l.items.push_back(integer());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != close) {
        bad(fmt::format("expected ',' or '{}' in a shape", close));
      }
    }
    ++pos_;
    return l;
  }

  std::string_view s_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("npy.io", path, "cannot open the file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail("npy.io", path, "error while reading");
  return ss.str();
}

std::uint64_t little_endian(std::string_view bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) v |= std::uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  return v;
}

const Literal& key(const std::map<std::string, Literal>& d, const std::string& name, Literal::Kind kind,
                   const std::string& path) {
  const auto it = d.find(name);
  if (it == d.end()) fail("npy.header", path, fmt::format("the header has no '{}'", name));
  if (it->second.kind != kind)
    fail("npy.header", path, fmt::format("'{}' has the wrong type: {}", name, it->second.show()));
  return it->second;
}

/// int8 in any byte order (one byte has none), as numpy's descr spells it.
bool is_int8(const std::string& descr) {
  if (descr == "i1") return true;
  return descr.size() == 3 && descr.substr(1) == "i1" &&
         std::string_view("|<>=").find(descr[0]) != std::string_view::npos;
}

}  // namespace

Int8Matrix read_npy_int8(const std::string& path) { return parse_npy_int8(read_all(path), path); }

Int8Matrix parse_npy_int8(std::string_view bytes, const std::string& path) {
  const std::string_view all = bytes;
  if (all.substr(0, kMagic.size()) != kMagic)
    fail("npy.magic", path, "not a .npy file (the magic \\x93NUMPY is missing)");
  if (all.size() < kMagic.size() + 2) fail("npy.truncated", path, "the file ends inside the version bytes");
  const int major = static_cast<unsigned char>(all[kMagic.size()]);
  const int minor = static_cast<unsigned char>(all[kMagic.size() + 1]);
  if (minor != 0 || major < 1 || major > 3)
    fail("npy.header", path, fmt::format("format version {}.{} is not supported (1.0, 2.0 and 3.0 are)", major, minor));
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t start = kMagic.size() + 2 + len_bytes;
  if (all.size() < start) fail("npy.truncated", path, "the file ends inside the header length");
  const std::uint64_t header_len = little_endian(all.substr(kMagic.size() + 2, len_bytes));
  if (all.size() - start < header_len)
    fail("npy.truncated", path,
         fmt::format("the header is {} bytes but the file ends after {}", header_len, all.size() - start));
  const auto d = HeaderParser(all.substr(start, header_len), path).dict();
  for (const auto& [name, v] : d)
    if (name != "descr" && name != "fortran_order" && name != "shape")
      fail("npy.header", path, fmt::format("the header has an unknown key '{}'", name));

  const std::string& descr = key(d, "descr", Literal::String, path).text;
  if (!is_int8(descr)) fail("npy.dtype", path, fmt::format("dtype '{}' is not int8 ('|i1')", descr));
  if (key(d, "fortran_order", Literal::Bool, path).flag)
    fail("npy.header", path, "the array is in Fortran order; only C order is supported");
  const Literal& shape = key(d, "shape", Literal::Tuple, path);
  if (shape.items.size() != 2) fail("npy.shape", path, fmt::format("shape {} is not 2-D", shape.show()));
  if (shape.items[0] < 0 || shape.items[1] < 0)
    fail("npy.shape", path, fmt::format("shape {} is negative", shape.show()));

  Int8Matrix m;
  m.rows = shape.items[0];
  m.cols = shape.items[1];
  const std::size_t body = bytes.size() - start - static_cast<std::size_t>(header_len);
  const auto rows = static_cast<std::uint64_t>(m.rows);
  const auto cols = static_cast<std::uint64_t>(m.cols);
  if ((cols != 0 && rows > body / cols) || rows * cols > body)
    fail("npy.truncated", path,
         fmt::format("shape {} needs {} x {} bytes but the data is {}", shape.show(), m.rows, m.cols, body));
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const std::size_t at = start + static_cast<std::size_t>(header_len);
  m.data.resize(n);
  for (std::size_t i = 0; i < n; ++i) m.data[i] = static_cast<std::int8_t>(static_cast<unsigned char>(bytes[at + i]));
  return m;
}

std::string npy_bytes(const Int8Matrix& m, const std::string& path) {
  if (m.rows < 0 || m.cols < 0 ||
      static_cast<std::uint64_t>(m.rows) * static_cast<std::uint64_t>(m.cols) != m.data.size())
    fail("npy.shape", path, fmt::format("a {} x {} matrix cannot hold {} values", m.rows, m.cols, m.data.size()));
  std::string header = fmt::format("{{'descr': '|i1', 'fortran_order': False, 'shape': ({}, {}), }}", m.rows, m.cols);
  // Pad with spaces and a newline so the data starts on a 64-byte boundary.
  const std::size_t preamble = kMagic.size() + 2 + 2;
  const std::size_t total = (preamble + header.size() + 1 + 63) / 64 * 64;
  header.append(total - preamble - header.size() - 1, ' ');
  header += '\n';
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  for (std::int8_t v : m.data) out += static_cast<char>(v);
  return out;
}

void write_npy_int8(const std::string& path, const Int8Matrix& m) {
  const std::string out = npy_bytes(m, path);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) fail("npy.io", path, "cannot open the file for writing");
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  f.close();
  if (!f) fail("npy.io", path, "error while writing");
}

}  // namespace tpugen
