/// @file diag.h
/// @brief Errors that carry where they come from: a file, a line and column,
/// and the rule that was broken.
#pragma once

#include <stdexcept>
#include <string>

namespace tpugen {

/// A place in an input: a spec file, an assembly source, a data file.
struct SourceLoc {
  std::string file;
  int line = 0;    ///< 1-based; 0 when unknown
  int column = 0;  ///< 1-based; 0 when unknown

  [[nodiscard]] std::string str() const;
};

/// Every error tpugen reports to a user. `rule` is a short stable code that
/// tests assert (e.g. "spec.field_overlap", "asm.unknown_opcode"); the message
/// is the human text; `where` names the input.
class Error : public std::runtime_error {
 public:
  Error(std::string rule, std::string message, SourceLoc where = {});

  [[nodiscard]] const std::string& rule() const { return rule_; }
  [[nodiscard]] const SourceLoc& where() const { return where_; }
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::string rule_;
  std::string message_;
  SourceLoc where_;
};

}  // namespace tpugen
