#include "model/mover/descriptor.h"

#include <fmt/format.h>

#include <string_view>

#include "util/diag.h"

namespace tpugen::mover {

namespace {

/// Which of a descriptor's members a register field sets: the move's own,
/// a walker's, one of its dimensions', or one of its axes'.
enum class Scope { Move, Walker, Dim, Axis };

using Getter = std::int64_t (*)(const MoveDescriptor&, int walker, int index);
using Setter = void (*)(MoveDescriptor&, int walker, int index, std::int64_t v);

/// A value field of the spec bound to its member of MoveDescriptor.
struct Binding {
  std::string_view field;
  Scope scope;
  Getter get;
  Setter set;
};

template <typename T>
T as(std::int64_t v) {
  return static_cast<T>(v);
}

// The spec's value fields by name (spec/system_node.yaml). A value field the
// spec adds needs a member and a row here; the register file refuses a spec
// with a value field it has no binding for.
constexpr Binding kBindings[] = {
    {"mode", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.mode; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.mode = as<std::uint32_t>(v); }},
    {"elem_width", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.elem_width; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.elem_width = as<std::uint32_t>(v); }},
    {"flags", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.flags; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.flags = as<std::uint32_t>(v); }},
    {"xform_id", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.xform_id; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.xform_id = as<std::uint32_t>(v); }},
    {"xform_mode", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.xform_mode; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.xform_mode = as<std::uint32_t>(v); }},
    {"index_base", Scope::Move,
     [](const MoveDescriptor& d, int, int) -> std::int64_t { return as<std::int64_t>(d.index_base); },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.index_base = as<std::uint64_t>(v); }},
    {"index_count", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.index_count; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.index_count = as<std::uint32_t>(v); }},
    {"seed", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return as<std::int64_t>(d.seed); },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.seed = as<std::uint64_t>(v); }},
    {"imm", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.imm; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.imm = as<std::uint32_t>(v); }},
    {"pitch", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.pitch; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.pitch = as<std::uint32_t>(v); }},
    {"gather_words", Scope::Move, [](const MoveDescriptor& d, int, int) -> std::int64_t { return d.gather_words; },
     [](MoveDescriptor& d, int, int, std::int64_t v) { d.gather_words = as<std::uint32_t>(v); }},
    {"base", Scope::Walker,
     [](const MoveDescriptor& d, int w, int) -> std::int64_t {
       return as<std::int64_t>(d.walkers[as<std::size_t>(w)].base);
     },
     [](MoveDescriptor& d, int w, int, std::int64_t v) { d.walkers[as<std::size_t>(w)].base = as<std::uint64_t>(v); }},
    {"ndim", Scope::Walker,
     [](const MoveDescriptor& d, int w, int) -> std::int64_t { return d.walkers[as<std::size_t>(w)].ndim; },
     [](MoveDescriptor& d, int w, int, std::int64_t v) { d.walkers[as<std::size_t>(w)].ndim = as<std::uint32_t>(v); }},
    {"count", Scope::Dim,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].count;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].count = as<std::uint32_t>(v);
     }},
    {"stride", Scope::Dim,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].stride;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].stride = v;
     }},
    {"bound_sel", Scope::Dim,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].bound_sel;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].bound_sel = as<std::uint32_t>(v);
     }},
    {"astep", Scope::Dim,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].astep;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].dims[as<std::size_t>(i)].astep = v;
     }},
    {"abase", Scope::Axis,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].axes[as<std::size_t>(i)].abase;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].axes[as<std::size_t>(i)].abase = v;
     }},
    {"extent", Scope::Axis,
     [](const MoveDescriptor& d, int w, int i) -> std::int64_t {
       return d.walkers[as<std::size_t>(w)].axes[as<std::size_t>(i)].extent;
     },
     [](MoveDescriptor& d, int w, int i, std::int64_t v) {
       d.walkers[as<std::size_t>(w)].axes[as<std::size_t>(i)].extent = as<std::uint32_t>(v);
     }},
};

const Binding* binding(std::string_view field) {
  for (const auto& b : kBindings)
    if (b.field == field) return &b;
  return nullptr;
}

/// The select fields' values of a write: which walker, dimension, axis.
struct Target {
  int walker = -1, dimension = -1, axis = -1;
  void take(const MoverRegister& r, std::uint64_t value) {
    if (const MoverField* f = r.field("walker")) walker = static_cast<int>(f->raw(value));
    if (const MoverField* f = r.field("dimension")) dimension = static_cast<int>(f->raw(value));
    if (const MoverField* f = r.field("axis")) axis = static_cast<int>(f->raw(value));
  }
};

/// The index a binding of `scope` needs from the target (-1: the write names none it can use).
int index_of(Scope scope, const Target& t) {
  switch (scope) {
    case Scope::Move:
      return 0;
    case Scope::Walker:
      return t.walker >= 0 && t.walker < 2 ? 0 : -1;
    case Scope::Dim:
      return t.walker >= 0 && t.walker < 2 && t.dimension >= 0 && t.dimension < kDims ? t.dimension : -1;
    case Scope::Axis:
      return t.walker >= 0 && t.walker < 2 && t.axis >= 0 && t.axis < kAxes ? t.axis : -1;
  }
  return -1;
}

/// Apply the value fields of `r` in `value` to the descriptor.
void apply(MoveDescriptor& d, const MoverRegister& r, std::uint64_t value, const Target& t) {
  for (const auto& f : r.fields) {
    if (f.kind != MoverFieldKind::Value) continue;
    const Binding* b = binding(f.name);
    const int index = index_of(b->scope, t);
    if (index < 0) continue;  // e.g. dimension 6 or 7: names no dimension, changes nothing
    b->set(d, t.walker, index, f.value(value));
  }
}

}  // namespace

MoverRegisterFile::MoverRegisterFile(const SystemNodeSpec& spec) : spec_(&spec) {
  const MoverSpec& m = spec.mover;
  if (m.dimensions != kDims || m.bound_axes != kAxes || m.walkers.size() != 2)
    throw Error(
        "mover.spec",
        fmt::format("the mover model has 2 walkers of {} dimensions and {} bound axes; the spec has {} of {} and {}",
                    kDims, kAxes, m.walkers.size(), m.dimensions, m.bound_axes),
        spec.section("mover"));
  for (const auto& r : m.registers)
    for (const auto& f : r.fields)
      if (f.kind == MoverFieldKind::Value && !binding(f.name))
        throw Error("mover.spec", fmt::format("register field {} has no member in the mover model", f.name), f.loc);
  for (const auto& b : kBindings) (void)m.require_field(b.field, "the mover model");
  reset();
}

void MoverRegisterFile::reset() {
  d_ = MoveDescriptor{};
  for (const auto& r : spec_->mover.registers)
    for (const auto& f : r.fields) {
      if (f.kind != MoverFieldKind::Value) continue;
      const Binding* b = binding(f.name);
      const int n = b->scope == Scope::Dim ? kDims : b->scope == Scope::Axis ? kAxes : 1;
      for (int w = 0; w < 2; ++w)
        for (int i = 0; i < n; ++i) b->set(d_, w, i, f.reset);
    }
  staged_ = 0;
  has_staged_ = false;
}

bool MoverRegisterFile::write(std::uint32_t offset, std::uint64_t value) {
  const MoverRegister* r = spec_->mover.reg_at(offset);
  if (!r || r->read_only()) return false;
  if (r->stages) {
    staged_ = value;
    has_staged_ = true;
    return false;
  }
  Target t;
  if (!r->commits.empty()) {
    if (!has_staged_) return false;  // a commit with nothing staged changes nothing
    const MoverRegister& staged = *spec_->mover.reg(r->commits);
    t.take(staged, staged_);
    t.take(*r, value);
    apply(d_, staged, staged_, t);
  } else {
    t.take(*r, value);
  }
  apply(d_, *r, value, t);
  bool go = false;
  for (const auto& f : r->fields)
    if (f.kind == MoverFieldKind::Strobe && f.raw(value) != 0) go = true;
  return go;
}

std::vector<RegWrite> MoverRegisterFile::writes_for(const MoveDescriptor& d, bool go) const {
  const MoverSpec& m = spec_->mover;
  std::vector<RegWrite> out;
  RegWrite last{};
  auto fill = [&](const MoverRegister& r, std::uint64_t value, int walker, int index) {
    for (const auto& f : r.fields) {
      std::int64_t v = 0;
      if (f.kind == MoverFieldKind::Value) {
        const Binding* b = binding(f.name);
        v = b->get(d, walker, index);
        if (!f.fits(v))
          throw Error("mover.value", fmt::format("{} = {} does not fit its {}-bit{} field", f.name, v, f.width(),
                                                 f.is_signed ? " signed" : ""));
      } else if (f.kind == MoverFieldKind::Select) {
        v = f.name == "walker" ? walker : index;
      } else if (f.kind == MoverFieldKind::Strobe) {
        v = go ? 1 : 0;
      }
      value = f.with(value, v);
    }
    return value;
  };
  auto carries_strobe = [](const MoverRegister& r) {
    for (const auto& f : r.fields)
      if (f.kind == MoverFieldKind::Strobe) return true;
    return false;
  };
  auto scope_of = [](const MoverRegister& r) {
    Scope s = Scope::Move;
    for (const auto& f : r.fields)
      if (f.kind == MoverFieldKind::Value) s = binding(f.name)->scope;
    return s;
  };
  for (const auto& r : m.registers) {
    if (r.read_only() || r.stages) continue;
    const MoverRegister* staged = r.commits.empty() ? nullptr : m.reg(r.commits);
    const Scope scope = staged ? scope_of(*staged) : scope_of(r);
    const int walkers = scope == Scope::Move ? 1 : 2;
    const int n = scope == Scope::Dim ? kDims : scope == Scope::Axis ? kAxes : 1;
    for (int w = 0; w < walkers; ++w)
      for (int i = 0; i < n; ++i) {
        if (staged) out.push_back({staged->offset, fill(*staged, 0, w, i)});
        const RegWrite write{r.offset, fill(r, 0, w, i)};
        if (carries_strobe(r)) {
          last = write;  // the MOVE write goes last: it carries GO
          continue;
        }
        out.push_back(write);
      }
  }
  out.push_back(last);
  return out;
}

}  // namespace tpugen::mover
