/// @file markdown.h
/// @brief A Markdown table writer for the generated documents, and the
/// drift check that compares a committed document with its rendering.
#pragma once

#include <string>
#include <vector>

namespace tpugen {

/// A Markdown table writer; cells are escaped for pipes.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  [[nodiscard]] std::string str() const {
    std::string out = line(header_);
    std::vector<std::string> rule(header_.size(), "---");
    out += line(rule);
    for (const auto& r : rows_) out += line(r);
    return out + "\n";
  }

 private:
  static std::string esc(const std::string& s) {
    std::string o;
    for (char c : s) {
      if (c == '|') o += "\\|";
      else if (c == '\n') o += ' ';
      else o += c;
    }
    return o;
  }
  static std::string line(const std::vector<std::string>& cells) {
    std::string o = "|";
    for (const auto& c : cells) o += " " + esc(c) + " |";
    return o + "\n";
  }
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

/// `text` with what lies between the line `begin` and the line `end` (each
/// given without its newline) replaced by `content`. Throws Error(rule)
/// naming `path` when a marker is missing: a document with a generated part
/// between hand-written prose (README's command table, docs/noc.md's tables).
std::string replace_between_markers(const std::string& text, const std::string& begin, const std::string& end,
                                    const std::string& content, const std::string& path, const std::string& rule);

/// Compare a file with the text it should hold; empty when equal, else a
/// short report naming the first differing line.
std::string text_drift(const std::string& want, const std::string& path);

}  // namespace tpugen
