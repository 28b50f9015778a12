#include "spec/yaml_reader.h"

#include <fmt/format.h>

namespace tpugen {

SourceLoc loc_of(const std::string& file, const YAML::Node& node) {
  const YAML::Mark m = node.Mark();
  if (m.is_null()) return SourceLoc{file, 0, 0};
  return SourceLoc{file, m.line + 1, m.column + 1};
}

YamlMap::YamlMap(const YAML::Node& node, std::string file, std::string what)
    : node_(node), file_(std::move(file)), what_(std::move(what)) {
  if (!node_.IsMap())
    throw Error("spec.type", fmt::format("{} must be a mapping", what_), loc_of(file_, node_));
}

bool YamlMap::has(const std::string& key) const { return static_cast<bool>(node_[key]); }

SourceLoc YamlMap::loc(const std::string& key) const {
  if (auto n = node_[key]) return loc_of(file_, n);
  return loc();
}

YAML::Node YamlMap::node(const std::string& key) {
  used_.insert(key);
  YAML::Node n = node_[key];
  if (!n)
    throw Error("spec.missing_key", fmt::format("{} needs the key '{}'", what_, key), loc());
  return n;
}

YAML::Node YamlMap::scalar(const std::string& key) {
  YAML::Node n = node(key);
  if (!n.IsScalar())
    throw Error("spec.type", fmt::format("{}: '{}' must be a scalar", what_, key), loc_of(file_, n));
  return n;
}

std::string YamlMap::str(const std::string& key) { return scalar(key).Scalar(); }

std::string YamlMap::str_or(const std::string& key, const std::string& fallback) {
  return has(key) ? str(key) : (used_.insert(key), fallback);
}

namespace {

/// A scalar as an integer (decimal, 0x hex, 0 octal); Error(spec.type) naming `what` otherwise.
std::int64_t scalar_integer(const YAML::Node& n, const std::string& file, const std::string& what) {
  try {
    std::size_t pos = 0;
    const std::string s = n.Scalar();
    const long long v = std::stoll(s, &pos, 0);
    if (pos != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw Error("spec.type", fmt::format("{} must be an integer, not '{}'", what, n.Scalar()), loc_of(file, n));
  }
}

}  // namespace

std::int64_t YamlMap::integer(const std::string& key) {
  return scalar_integer(scalar(key), file_, fmt::format("{}: '{}'", what_, key));
}

std::vector<std::int64_t> YamlMap::integer_list(const std::string& key) {
  std::vector<std::int64_t> out;
  for (const auto& n : seq(key)) {
    if (!n.IsScalar())
      throw Error("spec.type", fmt::format("{}: '{}' must be a list of integers", what_, key), loc_of(file_, n));
    out.push_back(scalar_integer(n, file_, fmt::format("{}: an element of '{}'", what_, key)));
  }
  return out;
}

std::int64_t YamlMap::integer_in(const std::string& key, std::int64_t lo, std::int64_t hi, std::string_view rule) {
  const std::int64_t v = integer(key);
  if (v < lo || v > hi)
    throw Error(std::string(rule), fmt::format("'{}' is {}; it must be {} .. {}", key, v, lo, hi), loc(key));
  return v;
}

std::optional<std::int64_t> YamlMap::integer_opt(const std::string& key) {
  used_.insert(key);
  if (!has(key)) return std::nullopt;
  return integer(key);
}

std::pair<int, int> YamlMap::bit_range(const std::string& key, int frame_bits, std::string_view what,
                                       std::string_view rule) {
  const auto items = seq(key);
  const SourceLoc where = loc(key);
  auto fail = [&](const std::string& message) { throw Error(std::string(rule), message, where); };
  if (items.size() != 2) fail(fmt::format("{}: {} must be [msb, lsb]", what, key));
  int v[2] = {0, 0};
  for (std::size_t i = 0; i < 2; ++i) {
    try {
      v[i] = items[i].as<int>();
    } catch (const YAML::Exception&) {
      fail(fmt::format("{}: {} must be two integers", what, key));
    }
  }
  if (v[1] < 0 || v[0] < v[1] || v[0] >= frame_bits)
    fail(fmt::format("{}: {} [{}, {}] are not msb >= lsb within 0 .. {}", what, key, v[0], v[1], frame_bits - 1));
  return {v[0], v[1]};
}

bool YamlMap::boolean_or(const std::string& key, bool fallback) {
  used_.insert(key);
  if (!has(key)) return fallback;
  YAML::Node n = scalar(key);
  const std::string& s = n.Scalar();
  if (s == "true") return true;
  if (s == "false") return false;
  throw Error("spec.type", fmt::format("{}: '{}' must be true or false, not '{}'", what_, key, s),
              loc_of(file_, n));
}

Expr parse_expr_at(const std::string& text, const SourceLoc& where) {
  try {
    return Expr::parse(text);
  } catch (const ExprError& e) {
    SourceLoc at = where;
    if (at.column > 0) at.column += static_cast<int>(e.offset());
    throw Error(e.rule(), fmt::format("in expression '{}': {}", text, e.what()), at);
  }
}

Expr YamlMap::expr(const std::string& key) {
  YAML::Node n = scalar(key);
  return parse_expr_at(n.Scalar(), loc_of(file_, n));
}

std::optional<Expr> YamlMap::expr_opt(const std::string& key) {
  used_.insert(key);
  if (!has(key)) return std::nullopt;
  return expr(key);
}

std::vector<YAML::Node> YamlMap::seq(const std::string& key) {
  YAML::Node n = node(key);
  if (!n.IsSequence())
    throw Error("spec.type", fmt::format("{}: '{}' must be a list", what_, key), loc_of(file_, n));
  std::vector<YAML::Node> out;
  for (const auto& e : n) out.push_back(e);
  return out;
}

std::vector<YAML::Node> YamlMap::seq_or_empty(const std::string& key) {
  used_.insert(key);
  if (!has(key)) return {};
  return seq(key);
}

void YamlMap::finish() const {
  for (const auto& kv : node_) {
    const std::string key = kv.first.as<std::string>();
    if (!used_.count(key))
      throw Error("spec.unknown_key", fmt::format("{} has no key '{}'", what_, key),
                  loc_of(file_, kv.first));
  }
}

void BitOccupancy::take(int msb, int lsb, const std::string& what, const SourceLoc& where) {
  for (int b = lsb; b <= msb; ++b) {
    if (taken_[static_cast<std::size_t>(b)])
      throw Error(rule_, fmt::format("{} overlaps another field at bit {}", what, b), where);
    taken_[static_cast<std::size_t>(b)] = true;
  }
}

int BitOccupancy::first_free(int lo, int hi) const {
  for (int b = lo; b <= hi; ++b)
    if (!taken_[static_cast<std::size_t>(b)]) return b;
  return -1;
}

}  // namespace tpugen
