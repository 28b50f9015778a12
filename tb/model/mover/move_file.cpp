#include "model/mover/move_file.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "util/diag.h"
#include "util/file_io.h"

namespace tpugen::mover {

namespace {

using Json = nlohmann::json;

/// The reader of one file: errors name the file and the key's path.
class Reader {
 public:
  Reader(const SystemNodeSpec& spec, std::string path) : spec_(spec), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw Error("mover.move", key.empty() ? message : fmt::format("{}: {}", key, message), SourceLoc{path_});
  }

  /// Refuse keys outside `known`.
  void only(const Json& j, const std::string& at, std::initializer_list<const char*> known) const {
    if (!j.is_object()) fail(at, "must be an object");
    for (const auto& [key, value] : j.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok) {
        std::string names;
        for (const char* k : known) names += (names.empty() ? "" : ", ") + std::string(k);
        fail(at.empty() ? key : at + "." + key, fmt::format("unknown key (the keys here: {})", names));
      }
    }
  }

  /// An integer: a JSON number or a "0x..." / decimal string.
  std::int64_t integer(const Json& v, const std::string& key) const {
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(v.get<std::uint64_t>());  // a 64-bit seed's bits
      return v.get<std::int64_t>();
    }
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      try {
        std::size_t used = 0;
        const bool negative = !s.empty() && s[0] == '-';
        const unsigned long long u = std::stoull(negative ? s.substr(1) : s, &used, 0);
        if (used + (negative ? 1 : 0) == s.size() && !s.empty())
          return negative ? -static_cast<std::int64_t>(u) : static_cast<std::int64_t>(u);
      } catch (const std::exception&) {
      }
      fail(key, fmt::format("'{}' is not an integer", s));
    }
    fail(key, "must be an integer (a number or a \"0x...\" string)");
  }

  /// An integer for spec field `field`, checked to fit it.
  std::int64_t field_value(const Json& v, const std::string& key, std::string_view field) const {
    const std::int64_t x = integer(v, key);
    const MoverField& f = spec_.mover.require_field(field, "a move file");
    if (!f.fits(x))
      fail(key, fmt::format("{} does not fit the {}-bit{} register field {} ({})", x, f.width(),
                            f.is_signed ? " signed" : "", f.name, f.loc.str()));
    return x;
  }

  template <typename T>
  void set(const Json& j, const char* key, const std::string& at, std::string_view field, T& into) const {
    if (!j.contains(key)) return;
    into = static_cast<T>(field_value(j[key], at.empty() ? key : at + "." + key, field));
  }

  WalkerDesc walker(const Json& j, const std::string& at, WalkerDesc w) const {
    only(j, at, {"base", "ndim", "dims", "bounds"});
    set(j, "base", at, "base", w.base);
    if (j.contains("dims")) {
      const Json& dims = j["dims"];
      if (!dims.is_array()) fail(at + ".dims", "must be a list of {count, stride, bound, astep}");
      if (dims.size() > static_cast<std::size_t>(kDims))
        fail(at + ".dims", fmt::format("{} dimensions; a walker has {}", dims.size(), kDims));
      for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::string k = fmt::format("{}.dims[{}]", at, i);
        only(dims[i], k, {"count", "stride", "bound", "astep"});
        DimDesc& d = w.dims[i];
        set(dims[i], "count", k, "count", d.count);
        set(dims[i], "stride", k, "stride", d.stride);
        set(dims[i], "bound", k, "bound_sel", d.bound_sel);
        set(dims[i], "astep", k, "astep", d.astep);
      }
      w.ndim = static_cast<std::uint32_t>(dims.size());
    }
    set(j, "ndim", at, "ndim", w.ndim);
    if (j.contains("bounds")) {
      const Json& bounds = j["bounds"];
      if (!bounds.is_array() || bounds.size() > static_cast<std::size_t>(kAxes))
        fail(at + ".bounds", fmt::format("must be a list of at most {} {{base, extent}}", kAxes));
      for (std::size_t a = 0; a < bounds.size(); ++a) {
        const std::string k = fmt::format("{}.bounds[{}]", at, a);
        only(bounds[a], k, {"base", "extent"});
        set(bounds[a], "base", k, "abase", w.axes[a].abase);
        set(bounds[a], "extent", k, "extent", w.axes[a].extent);
      }
    }
    return w;
  }

  MoveDescriptor move(const Json& j, MoveDescriptor d) const {
    only(j, "",
         {"mode", "elem_width", "flags", "src", "dst", "index", "pitch", "gather_words", "seed", "imm", "xform"});
    if (j.contains("mode")) {
      const Json& m = j["mode"];
      if (m.is_string() && spec_.mover.mode(m.get<std::string>())) {
        d.mode = spec_.mover.mode(m.get<std::string>())->code;
      } else if (m.is_string() &&
                 (m.get<std::string>().empty() || !std::isdigit(static_cast<unsigned char>(m.get<std::string>()[0])))) {
        std::string names;
        for (const auto& x : spec_.mover.modes) names += (names.empty() ? "" : ", ") + x.name;
        fail("mode", fmt::format("'{}' is no mode ({}, or a code)", m.get<std::string>(), names));
      } else {
        d.mode = static_cast<std::uint32_t>(field_value(m, "mode", "mode"));
      }
    }
    set(j, "elem_width", "", "elem_width", d.elem_width);
    set(j, "flags", "", "flags", d.flags);
    const std::uint32_t src = spec_.mover.require_walker("source").code;
    const std::uint32_t dst = spec_.mover.require_walker("destination").code;
    if (j.contains("src")) d.walkers[src] = walker(j["src"], "src", d.walkers[src]);
    if (j.contains("dst")) d.walkers[dst] = walker(j["dst"], "dst", d.walkers[dst]);
    if (j.contains("index")) {
      only(j["index"], "index", {"base", "count"});
      set(j["index"], "base", "index", "index_base", d.index_base);
      set(j["index"], "count", "index", "index_count", d.index_count);
    }
    set(j, "pitch", "", "pitch", d.pitch);
    set(j, "gather_words", "", "gather_words", d.gather_words);
    set(j, "seed", "", "seed", d.seed);
    set(j, "imm", "", "imm", d.imm);
    if (j.contains("xform")) {
      only(j["xform"], "xform", {"id", "mode"});
      set(j["xform"], "id", "xform", spec_.mover.xform_id_field, d.xform_id);
      set(j["xform"], "mode", "xform", spec_.mover.xform_mode_field, d.xform_mode);
    }
    return d;
  }

 private:
  const SystemNodeSpec& spec_;
  std::string path_;
};

}  // namespace

MoveDescriptor parse_move(const SystemNodeSpec& spec, const std::string& text, const std::string& path) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    throw Error("mover.move", fmt::format("not JSON: {}", e.what()), SourceLoc{path});
  }
  const MoverRegisterFile reset(spec);
  return Reader(spec, path).move(j, reset.descriptor());
}

MoveDescriptor read_move_file(const SystemNodeSpec& spec, const std::string& path) {
  return parse_move(spec, read_file(path, "mover.io"), path);
}

nlohmann::ordered_json move_json(const SystemNodeSpec& spec, const MoveDescriptor& d) {
  auto walker = [](const WalkerDesc& w) {
    nlohmann::ordered_json j;
    j["base"] = w.base;
    j["ndim"] = w.ndim;
    j["dims"] = nlohmann::ordered_json::array();
    for (const auto& dim : w.dims)
      j["dims"].push_back(
          {{"count", dim.count}, {"stride", dim.stride}, {"bound", dim.bound_sel}, {"astep", dim.astep}});
    j["bounds"] = nlohmann::ordered_json::array();
    for (const auto& a : w.axes) j["bounds"].push_back({{"base", a.abase}, {"extent", a.extent}});
    return j;
  };
  nlohmann::ordered_json j;
  j["mode"] = d.mode;
  j["elem_width"] = d.elem_width;
  j["flags"] = d.flags;
  j["src"] = walker(d.walkers[spec.mover.require_walker("source").code]);
  j["dst"] = walker(d.walkers[spec.mover.require_walker("destination").code]);
  j["index"] = {{"base", d.index_base}, {"count", d.index_count}};
  j["pitch"] = d.pitch;
  j["gather_words"] = d.gather_words;
  j["seed"] = fmt::format("{:#x}", d.seed);
  j["imm"] = d.imm;
  j["xform"] = {{"id", d.xform_id}, {"mode", d.xform_mode}};
  return j;
}

}  // namespace tpugen::mover
