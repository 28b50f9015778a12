/// @file enum_names.h
/// @brief An enum's spellings as one table that serves both directions: the
/// name of a value (to_string) and the value of a name (parsing an option or
/// a spec key), so the two can never disagree.
///
///   constexpr EnumName<Color> kColors[] = {{Color::Red, "red"}, {Color::Blue, "blue"}};
///   enum_name(kColors, Color::Red)   -> "red"
///   enum_value(kColors, "blue")      -> Color::Blue (nullopt for an unknown name)
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace tpugen {

/// One row of an enum's table: a value and how it is spelled.
template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

/// The spelling of `value`, or `otherwise` when the table lacks it.
template <typename E, std::size_t N>
[[nodiscard]] constexpr std::string_view enum_name(const EnumName<E> (&table)[N], E value,
                                                   std::string_view otherwise = "?") {
  for (const auto& row : table)
    if (row.value == value) return row.name;
  return otherwise;
}

/// The value spelled `name`, or nullopt when no row spells it.
template <typename E, std::size_t N>
[[nodiscard]] constexpr std::optional<E> enum_value(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& row : table)
    if (row.name == name) return row.value;
  return std::nullopt;
}

}  // namespace tpugen
