/// @file codec.h
/// @brief Flits and their payloads encoded and decoded by field name, as the
/// NoC spec lays them out (spec/noc.yaml): no bit position or type code is
/// written in code. Setting a value that does not fit its field is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "noc/flit.h"
#include "spec/noc_spec.h"

namespace tpugen::noc {

/// A node of the mesh.
struct Coord {
  int x = 0, y = 0;
  bool operator==(const Coord&) const = default;
  auto operator<=>(const Coord&) const = default;
};

/// Where one field (or a flag, an element, a sub-field of one) lies in the flit.
struct FieldRef {
  std::string name;  ///< its path: "dst_x", "mem_req.addr", "mem_req.flags.STREAM", "mem_req.peer[1].x"
  int lsb = 0, width = 0;
  [[nodiscard]] std::uint64_t get(const Flit& f) const { return f.bits(lsb, width); }  ///< width <= 64
  /// Throws Error("noc.range") when v does not fit `width` bits.
  void set(Flit& f, std::uint64_t v) const;
};

/// The header of a flit, field by field.
struct Header {
  std::uint32_t dst_x = 0, dst_y = 0, src_x = 0, src_y = 0;
  std::uint32_t type = 0, txn = 0, last = 0, rsvd = 0;
  [[nodiscard]] Coord dst() const { return {static_cast<int>(dst_x), static_cast<int>(dst_y)}; }
  [[nodiscard]] Coord src() const { return {static_cast<int>(src_x), static_cast<int>(src_y)}; }
  bool operator==(const Header&) const = default;
  /// A header from `src` to `dst` (coordinates that must not be negative).
  [[nodiscard]] static Header between(Coord dst, Coord src, std::uint32_t type, std::uint32_t txn, std::uint32_t last,
                                      std::uint32_t rsvd = 0) {
    return {static_cast<std::uint32_t>(dst.x),
            static_cast<std::uint32_t>(dst.y),
            static_cast<std::uint32_t>(src.x),
            static_cast<std::uint32_t>(src.y),
            type,
            txn,
            last,
            rsvd};
  }
};

/// One decoded field: its path, its value when it has at most 64 bits, and always its hex.
struct DecodedField {
  std::string name;
  int width = 0;
  std::optional<std::uint64_t> value;
  std::string hex;
};

class Codec {
 public:
  explicit Codec(const NocSpec& spec);

  [[nodiscard]] const NocSpec& spec() const { return *spec_; }
  [[nodiscard]] int flit_bits() const { return spec_->flit_bits(); }

  /// A header field by name, or a payload field by path
  /// ("<layout>.<field>[.<flag>]", "<layout>.<field>[<i>][.<sub-field>]").
  /// Throws Error("noc.field") for a name the spec does not have.
  [[nodiscard]] FieldRef field(std::string_view path) const;
  /// The payload's bits.
  [[nodiscard]] FieldRef payload() const { return {"payload", 0, spec_->payload_bits}; }

  [[nodiscard]] Header header(const Flit& f) const;
  /// Throws Error("noc.range") for a field value that does not fit.
  void set_header(Flit& f, const Header& h) const;
  /// The header's 32 bits as one value.
  [[nodiscard]] std::uint64_t header_bits(const Flit& f) const {
    return f.bits(spec_->payload_bits, spec_->header_bits);
  }

  /// A type's code by name; throws Error("noc.field") for an unknown type.
  [[nodiscard]] std::uint32_t type_code(std::string_view name) const;
  /// The name of a type code: the type's, or "reserved 0x9".
  [[nodiscard]] std::string type_name(std::uint32_t code) const;

  /// Set a field (by path) from a number, or from hex text for any width.
  void set(Flit& f, std::string_view path, std::uint64_t v) const { field(path).set(f, v); }
  void set_hex(Flit& f, std::string_view path, std::string_view hex) const;
  [[nodiscard]] std::uint64_t get(const Flit& f, std::string_view path) const;

  /// The header fields, then the fields of the payload layout the flit's type
  /// names (its flags and elements after each field), in spec order.
  [[nodiscard]] std::vector<DecodedField> decode(const Flit& f) const;
  /// One line: "MEM_RD_REQ (1,2)->(3,0) txn 5 last 0 rsvd 0 | addr=0x40 len=0 ...".
  [[nodiscard]] std::string describe(const Flit& f) const;

  /// The whole flit as hex digits (flit_bits / 4), and back (Error("noc.hex")).
  [[nodiscard]] std::string hex(const Flit& f) const { return f.hex(flit_bits()); }
  [[nodiscard]] Flit from_hex(std::string_view hex, std::string_view what) const;

 private:
  const NocSpec* spec_;
  FieldRef dst_x_, dst_y_, src_x_, src_y_, type_, txn_, last_, rsvd_;
};

}  // namespace tpugen::noc
