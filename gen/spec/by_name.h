/// @file by_name.h
/// @brief The entry of a spec's list (anything with a `name`) by its name:
/// the one lookup the spec loaders and their users share.
#pragma once

#include <string_view>

namespace tpugen {

/// The entry of `list` named `name`, or nullptr.
template <typename List>
const typename List::value_type* by_name(const List& list, std::string_view name) {
  for (const auto& e : list)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tpugen
