/// @file names.h
/// @brief The one set of naming helpers: a spec name ("ar.read", "dma2sp",
/// "SPAD_ROWS") in the forms the outputs spell it.
#pragma once

#include <string>
#include <string_view>

namespace tpugen {

/// Upper case with '.' as '_', a constant's form: "ar.read" -> "AR_READ".
[[nodiscard]] std::string upper(std::string_view s);
/// Lower case: "CLK_I" -> "clk_i".
[[nodiscard]] std::string lower(std::string_view s);
/// Each word (split at '_' and '.') with its first letter upper-cased, joined:
/// "dma2sp" -> "Dma2sp", "ar.read" -> "ArRead".
[[nodiscard]] std::string camel(std::string_view s);
/// A command-line flag's form: lower case with '_' as '-': "SPAD_ROWS" -> "spad-rows".
[[nodiscard]] std::string kebab(std::string_view s);

}  // namespace tpugen
