/// @file descriptor.h
/// @brief A move as the mover's registers hold it (spec/system_node.yaml's
/// register map, mover-notes §1): the MOVE fields, two walkers of six
/// dimensions and two bound axes, GATHER's index vector and row geometry,
/// the seed and the immediate. The register file turns 64-bit register
/// writes into it, field by field as the spec places them, and a descriptor
/// back into the writes that program it (what a bench or the RTL harness
/// sends).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "spec/system_node_spec.h"

namespace tpugen::mover {

/// The walkers' geometry limits. The spec must agree (the register file checks).
inline constexpr int kDims = 6;
inline constexpr int kAxes = 2;

struct DimDesc {
  std::uint32_t count = 0;  ///< raw: 0 means 1
  std::int64_t stride = 0;  ///< bytes, signed 32-bit
  std::uint32_t bound_sel = 0;
  std::int64_t astep = 0;  ///< signed 16-bit
  bool operator==(const DimDesc&) const = default;
};

struct AxisDesc {
  std::int64_t abase = 0;    ///< signed 16-bit
  std::uint32_t extent = 0;  ///< 0: the axis is off
  bool operator==(const AxisDesc&) const = default;
};

struct WalkerDesc {
  std::uint64_t base = 0;
  std::uint32_t ndim = 1;  ///< raw: 0 one element, 6 and 7 all six
  std::array<DimDesc, kDims> dims{};
  std::array<AxisDesc, kAxes> axes{};
  /// The live dimensions: ndim clipped to kDims.
  [[nodiscard]] int live_dims() const {
    return ndim > static_cast<std::uint32_t>(kDims) ? kDims : static_cast<int>(ndim);
  }
  bool operator==(const WalkerDesc&) const = default;
};

struct MoveDescriptor {
  std::uint32_t mode = 0;
  std::uint32_t elem_width = 1;
  std::uint32_t flags = 0;
  std::uint32_t xform_id = 0;
  std::uint32_t xform_mode = 0;
  std::array<WalkerDesc, 2> walkers{};  ///< by the spec's walker code: source 0, destination 1
  std::uint64_t index_base = 0;
  std::uint32_t index_count = 0;
  std::uint64_t seed = 0;
  std::uint32_t imm = 0;
  std::uint32_t pitch = 0;
  std::uint32_t gather_words = 1;  ///< raw: 0 means 1
  bool operator==(const MoveDescriptor&) const = default;
};

/// One register write: a byte offset and a 64-bit value.
struct RegWrite {
  std::uint32_t offset = 0;
  std::uint64_t value = 0;
  bool operator==(const RegWrite&) const = default;
};

/// The mover's command registers as a model: reset values from the spec,
/// writes applied as the spec's fields say (select fields pick the walker,
/// dimension or axis; DIM stages until DIM_BOUND commits; GO is reported,
/// not stored). Throws Error("mover.spec") at construction when the spec
/// lacks a field the model needs or its geometry differs from kDims/kAxes.
class MoverRegisterFile {
 public:
  explicit MoverRegisterFile(const SystemNodeSpec& spec);

  /// Back to the reset values.
  void reset();
  /// Apply one write; true when it carries GO. A write to an offset no
  /// register has, or to STATUS, changes nothing.
  bool write(std::uint32_t offset, std::uint64_t value);
  [[nodiscard]] const MoveDescriptor& descriptor() const { return d_; }

  /// The writes that take the registers from reset to `d` (every register,
  /// every walker, dimension and axis), ending with the MOVE write carrying
  /// GO when `go`. Throws Error("mover.value") naming the field for a value
  /// that does not fit it.
  [[nodiscard]] std::vector<RegWrite> writes_for(const MoveDescriptor& d, bool go) const;

 private:
  const SystemNodeSpec* spec_;
  MoveDescriptor d_;
  std::uint64_t staged_ = 0;  ///< the last DIM write
  bool has_staged_ = false;
};

}  // namespace tpugen::mover
