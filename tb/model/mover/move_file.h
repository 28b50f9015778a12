/// @file move_file.h
/// @brief A move as a user writes it (MOVE.json, `tpugen mover run --move`):
/// the fields named as mover-notes.md names them, read strictly into a
/// MoveDescriptor. A key left out keeps the register's reset value (ndim:
/// the length of `dims`); an unknown key, a value of the wrong type or one
/// that does not fit its register field is an error naming the key's path.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "model/mover/descriptor.h"
#include "spec/system_node_spec.h"

namespace tpugen::mover {

/// Read MOVE.json's text. Throws Error("mover.move") naming `path` and the
/// key (e.g. "src.dims[2].stride") and the rule broken.
MoveDescriptor parse_move(const SystemNodeSpec& spec, const std::string& text, const std::string& path);
MoveDescriptor read_move_file(const SystemNodeSpec& spec, const std::string& path);

/// A descriptor as MOVE.json (every key, integers as numbers): what
/// parse_move reads back to the same descriptor.
nlohmann::ordered_json move_json(const SystemNodeSpec& spec, const MoveDescriptor& d);

}  // namespace tpugen::mover
