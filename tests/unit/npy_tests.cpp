// .npy reading and writing, against fixture bytes written here by hand from
// numpy's format description (magic, version, little-endian header length,
// a dict literal header, C-order data).
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "model/npy.h"
#include "util/diag.h"
#include "test_support.h"

namespace {

using namespace tpugen;
namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path dir = fs::path(TPUGEN_BINARY_DIR) / "test_tmp" / "npy";
  fs::create_directories(dir);
  return (dir / name).string();
}

void put_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string get_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A .npy file: magic, version major.minor, header length (2 bytes in 1.x, else 4), header, data.
/// With `pad`, the header is padded with spaces and a newline to a 64-byte boundary, as numpy does.
std::string npy(int major, std::string header, const std::string& data, bool pad = true, int minor = 0) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t preamble = 6 + 2 + len_bytes;
  if (pad) {
    while ((preamble + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
  }
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += static_cast<char>(minor);
  for (std::size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

const std::string kHeader23 = "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }";
const std::string kData23 = std::string("\x01\xfe\x03\x80\x7f\x00", 6);  // 1 -2 3 -128 127 0
const std::vector<std::int8_t> kValues23 = {1, -2, 3, -128, 127, 0};

std::string rule_of_read(const std::string& path) {
  try {
    (void)read_npy_int8(path);
  } catch (const Error& e) {
    CHECK_THAT(e.message(), Catch::Contains(path));
    CHECK(e.where().file == path);
    return e.rule();
  }
  return "none";
}

/// Write `bytes` to a fresh file and read it back; the rule of the error, or "none".
std::string rule_of_bytes(const std::string& name, const std::string& bytes) {
  const std::string path = scratch(name);
  put_file(path, bytes);
  return rule_of_read(path);
}

}  // namespace

TEST_CASE("npy: a matrix round-trips, and the file is numpy's version 1.0 layout", "[npy]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(-128, 127);
  for (const auto& [r, c] : {std::pair<std::int64_t, std::int64_t>{5, 7}, {1, 1}, {0, 3}, {64, 64}}) {
    Int8Matrix m{r, c, {}};
    for (std::int64_t i = 0; i < r * c; ++i) m.data.push_back(static_cast<std::int8_t>(byte(rng)));
    if (r * c >= 2) {
      m.data[0] = -128;
      m.data[1] = 127;
    }
    const std::string path = scratch("roundtrip.npy");
    write_npy_int8(path, m);
    const Int8Matrix back = read_npy_int8(path);
    CHECK(back.rows == r);
    CHECK(back.cols == c);
    CHECK(back.data == m.data);

    const std::string f = get_file(path);
    REQUIRE(f.size() >= 10);
    CHECK(f.substr(0, 6) == "\x93NUMPY");
    CHECK(f[6] == '\x01');
    CHECK(f[7] == '\x00');
    const std::size_t hlen =
        static_cast<unsigned char>(f[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(f[9])) << 8);
    CHECK((10 + hlen) % 64 == 0);
    REQUIRE(f.size() == 10 + hlen + static_cast<std::size_t>(r * c));
    const std::string header = f.substr(10, hlen);
    CHECK(header.back() == '\n');
    CHECK_THAT(header, Catch::Contains("'descr': '|i1'"));
    CHECK_THAT(header, Catch::Contains("'fortran_order': False"));
    CHECK_THAT(header, Catch::Contains("'shape': (" + std::to_string(r) + ", " + std::to_string(c) + ")"));
    for (std::size_t i = 0; i < m.data.size(); ++i) REQUIRE(static_cast<std::int8_t>(f[10 + hlen + i]) == m.data[i]);
  }
}

TEST_CASE("npy: format versions 1.0, 2.0 and 3.0 are read", "[npy]") {
  for (int major : {1, 2, 3}) {
    const std::string path = scratch("v" + std::to_string(major) + ".npy");
    put_file(path, npy(major, kHeader23, kData23));
    const Int8Matrix m = read_npy_int8(path);
    INFO("version " << major);
    CHECK(m.rows == 2);
    CHECK(m.cols == 3);
    CHECK(m.data == kValues23);
  }
}

TEST_CASE("npy: the header is parsed as a dict literal, whatever its spacing and quoting", "[npy]") {
  const std::vector<std::string> headers = {
      "{'descr':'|i1','fortran_order':False,'shape':(2,3)}",
      "{\"descr\": \"i1\", \"fortran_order\": False, \"shape\": (2, 3)}",
      "{ 'shape' : ( 2 , 3 , ) , 'fortran_order' : False , 'descr' : '|i1' , }",
      "{'descr': 'i1', 'fortran_order': False, 'shape': (2L, 3L), }",
      "{'descr': '<i1',\n 'fortran_order': False,\n 'shape': (2, 3)}",
  };
  for (std::size_t i = 0; i < headers.size(); ++i) {
    for (bool pad : {true, false}) {
      const std::string path = scratch("header" + std::to_string(i) + ".npy");
      put_file(path, npy(1, headers[i], kData23, pad));
      INFO(headers[i] << (pad ? " (padded)" : " (unpadded)"));
      const Int8Matrix m = read_npy_int8(path);
      CHECK(m.rows == 2);
      CHECK(m.cols == 3);
      CHECK(m.data == kValues23);
    }
  }
}

TEST_CASE("npy: a file that is not .npy is npy.magic", "[npy]") {
  CHECK(rule_of_bytes("empty.npy", "") == "npy.magic");
  CHECK(rule_of_bytes("text.npy", "hello, world\n") == "npy.magic");
  CHECK(rule_of_bytes("nohigh.npy", "NUMPY\x01\x00") == "npy.magic");
  std::string bad = npy(1, kHeader23, kData23);
  bad[1] = 'n';
  CHECK(rule_of_bytes("lower.npy", bad) == "npy.magic");
}

TEST_CASE("npy: header errors are npy.header", "[npy]") {
  CHECK(rule_of_bytes("v4.npy", npy(4, kHeader23, kData23)) == "npy.header");
  CHECK(rule_of_bytes("v0.npy", npy(0, kHeader23, kData23)) == "npy.header");
  CHECK(rule_of_bytes("v11.npy", npy(1, kHeader23, kData23, true, 1)) == "npy.header");
  CHECK(rule_of_bytes("unclosed.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3)", kData23)) ==
        "npy.header");
  CHECK(rule_of_bytes("notdict.npy", npy(1, "('|i1', False, (2, 3))", kData23)) == "npy.header");
  CHECK(rule_of_bytes("nodescr.npy", npy(1, "{'fortran_order': False, 'shape': (2, 3)}", kData23)) == "npy.header");
  CHECK(rule_of_bytes("noshape.npy", npy(1, "{'descr': '|i1', 'fortran_order': False}", kData23)) == "npy.header");
  CHECK(rule_of_bytes("extra.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), 'x': 1}",
                                       kData23)) == "npy.header");
  CHECK(rule_of_bytes("twice.npy", npy(1, "{'descr': '|i1', 'descr': '|i1', 'fortran_order': False, 'shape': (2, 3)}",
                                       kData23)) == "npy.header");
  CHECK(rule_of_bytes("shapestr.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': '2, 3'}", kData23)) ==
        "npy.header");
  CHECK(rule_of_bytes("garbage.npy", npy(1, kHeader23 + " junk", kData23, false)) == "npy.header");
}

TEST_CASE("npy: Fortran order is refused", "[npy]") {
  const std::string path = scratch("fortran.npy");
  put_file(path, npy(1, "{'descr': '|i1', 'fortran_order': True, 'shape': (2, 3), }", kData23));
  const Error e = test::error_of([&] { (void)read_npy_int8(path); });
  CHECK(e.rule() == "npy.header");
  CHECK_THAT(e.message(), Catch::Contains("Fortran"));
}

TEST_CASE("npy: a dtype other than int8 is npy.dtype, and named", "[npy]") {
  for (const std::string descr : {"<i2", "|u1", "<f4", "|b1", "<i8", "S1"}) {
    const std::string path = scratch("dtype.npy");
    put_file(path, npy(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2, 3), }", kData23 + kData23));
    try {
      (void)read_npy_int8(path);
      FAIL("no error for " << descr);
    } catch (const Error& e) {
      CHECK(e.rule() == "npy.dtype");
      CHECK_THAT(e.message(), Catch::Contains("'" + descr + "'"));
    }
  }
}

TEST_CASE("npy: a shape that is not 2-D is npy.shape", "[npy]") {
  CHECK(rule_of_bytes("s1.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (6,), }", kData23)) ==
        "npy.shape");
  CHECK(rule_of_bytes("s3.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 2, 3), }", kData23)) ==
        "npy.shape");
  CHECK(rule_of_bytes("s0.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (), }", kData23)) ==
        "npy.shape");
  CHECK(rule_of_bytes("sneg.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (-2, -3), }", kData23)) ==
        "npy.shape");
}

TEST_CASE("npy: a short file is npy.truncated", "[npy]") {
  CHECK(rule_of_bytes("data.npy", npy(1, kHeader23, kData23.substr(0, 5))) == "npy.truncated");
  CHECK(rule_of_bytes("nodata.npy", npy(2, kHeader23, "")) == "npy.truncated");
  CHECK(rule_of_bytes("huge.npy", npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
                                      kData23)) == "npy.truncated");
  const std::string whole = npy(1, kHeader23, kData23);
  CHECK(rule_of_bytes("header.npy", whole.substr(0, 30)) == "npy.truncated");
  CHECK(rule_of_bytes("length.npy", whole.substr(0, 9)) == "npy.truncated");
  CHECK(rule_of_bytes("version.npy", whole.substr(0, 7)) == "npy.truncated");
}

TEST_CASE("npy: files that cannot be opened are npy.io, a matrix that is not its shape is npy.shape", "[npy]") {
  CHECK(rule_of_read(scratch("does-not-exist.npy")) == "npy.io");
  const std::string nodir = scratch("no-such-dir/out.npy");
  const Error e = test::error_of([&] { write_npy_int8(nodir, Int8Matrix{1, 1, {0}}); });
  CHECK(e.rule() == "npy.io");
  CHECK_THAT(e.message(), Catch::Contains(nodir));
  CHECK(test::rule_of([&] { write_npy_int8(scratch("bad-shape.npy"), Int8Matrix{2, 3, {1, 2, 3}}); }) == "npy.shape");
}
