// Where suites come from: the embedded ones (tools/winnow/suites/*.json, built into the binary) and
// files given by path. Parsing and checking are in suite.cpp.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "embedded.hpp"
#include "suite.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {

std::vector<suite> embedded_suite_list() {
  std::vector<suite> out;
  for (const auto& [name, text] : embedded_suites()) out.push_back(parse_suite(name, text));
  return out;
}

suite load_suite(const std::string& name_or_path) {
  for (const auto& [name, text] : embedded_suites())
    if (name == name_or_path) return parse_suite(name, text);
  if (name_or_path.ends_with(".json")) {
    // A FIFO would block the read forever; a directory is not a suite.
    if (!std::filesystem::is_regular_file(name_or_path))
      throw usage_error("suite file " + name_or_path + ": " +
                        (std::filesystem::exists(name_or_path) ? "not a regular file" : "no such file"));
    std::ifstream in(name_or_path);
    if (!in) throw usage_error("suite file " + name_or_path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_suite(name_or_path, ss.str());
  }
  std::string known;
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded_suites()) {
    known += (known.empty() ? "" : ", ") + name;
    names.push_back(name);
  }
  throw usage_error("unknown suite '" + name_or_path + "'" + did_you_mean(name_or_path, names) + " (known: " + known +
                    "; or a path to a .json file)");
}

} // namespace winnow::cli
