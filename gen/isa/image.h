/// @file image.h
/// @brief The imem header (per-unit work counts, computed from the actions
/// over the issue stream) and program images: header words followed by the
/// encoded instructions, as little-endian 64-bit binaries or $readmemh hex.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tpugen {

/// Every header entry's count, in spec order.
std::vector<std::int64_t> header_counts(const Isa& isa, const Program& program, const std::vector<Issue>& issues);

/// Pack counts into NHDR words. Throws Error("header.overflow") naming the
/// entry when a count is outside its slice's usable range.
std::vector<std::uint64_t> pack_header(const Isa& isa, const std::vector<std::int64_t>& counts);
std::vector<std::int64_t> unpack_header(const Isa& isa, std::span<const std::uint64_t> words);

/// Header plus encoded instructions, without the contract checks (use
/// assemble() in check.h for that). Throws for a field outside its range,
/// a header count that does not fit, or an image larger than IMEM_SIZE.
std::vector<std::uint64_t> encode_image(const Isa& isa, const Program& program);

/// Decode an image: the static count comes from the header. Throws
/// Error("image.*") for a truncated image or a count that overruns it.
Program decode_image(const Isa& isa, std::span<const std::uint64_t> words, std::string source);

/// Files. Binary: little-endian 64-bit words. Hex: one 16-digit word per
/// line, readable by $readmemh. Readers throw Error("image.io"/"image.format")
/// naming the file and line.
void write_image_bin(const std::string& path, std::span<const std::uint64_t> words);
void write_image_hex(const std::string& path, std::span<const std::uint64_t> words);
std::vector<std::uint64_t> read_image_bin(const std::string& path);
std::vector<std::uint64_t> read_image_hex(const std::string& path);
/// By extension: .hex/.mem is hex, anything else binary.
std::vector<std::uint64_t> read_image(const std::string& path);

}  // namespace tpugen
