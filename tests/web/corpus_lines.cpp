// The native side of tests/web/same_bytes.sh: one line per case, for the conformance cases and then
// those of the spec file given (one a line; '#' comments), written as corpus_lines.js writes them from
// the web build's wasm. A line holds the case's canonical spec, sizes and checksum, its reference's
// count and checksum, and the verifier's verdicts on the reference and on outputs spoilt in known ways;
// or, for a spec refused, the message.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "winnow/corpus.hpp"
#include "winnow/reference.hpp"
#include "winnow/verify.hpp"

namespace {

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::string verdict_of(const winnow::workload& w, const std::vector<std::uint32_t>& expected,
                       std::vector<std::uint32_t> values, bool stable) {
  const winnow::verdict v = winnow::verify(w, expected, {std::move(values), std::nullopt}, stable);
  return v.ok ? "ok" : v.message;
}

std::string line(const std::string& spec) {
  winnow::workload w;
  try {
    w = winnow::generate(spec);
  } catch (const std::exception& e) { return spec + "\trefused\t" + e.what(); }
  const std::vector<std::uint32_t> ref = winnow::reference_compact(w);
  const std::size_t count = ref.size();
  winnow::workload ref_words;
  ref_words.data = ref; // checksum() over the reference alone
  std::string out = spec + "\t" + w.spec + "\tn=" + std::to_string(w.size()) +
                    "\tremovals=" + std::to_string(w.removals.size()) + "\twidth=" + std::to_string(w.width) +
                    "\tchecksum=" + hex(winnow::checksum(w)) + "\tkept=" + std::to_string(count) +
                    "\treference=" + hex(winnow::checksum(ref_words));
  out += "\texact=" + verdict_of(w, ref, ref, true);
  std::vector<std::uint32_t> reversed(ref.rbegin(), ref.rend());
  out += "\treversed=" + verdict_of(w, ref, reversed, false);
  if (count == 0) return out + "\ttampered=-\tshort=-\tforeign=-";
  std::vector<std::uint32_t> tampered = ref;
  tampered[count / 2] += 1;
  out += "\ttampered=" + verdict_of(w, ref, tampered, true);
  out += "\tshort=" + verdict_of(w, ref, std::vector<std::uint32_t>(ref.begin(), ref.end() - 1), false);
  reversed[0] = 0xFFFFFFF0u;
  out += "\tforeign=" + verdict_of(w, ref, reversed, false);
  return out;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: web_corpus_lines SPEC_FILE\n";
    return 2;
  }
  const std::size_t conformance = winnow::conformance_cases().size();
  std::vector<std::string> specs = winnow::conformance_cases();
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "web_corpus_lines: cannot read " << argv[1] << "\n";
    return 2;
  }
  for (std::string s; std::getline(in, s);)
    if (!s.empty() && s[0] != '#') specs.push_back(s);
  int status = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string l = line(specs[i]);
    std::cout << l << "\n";
    if (i < conformance && l.find("\trefused\t") != std::string::npos) {
      std::cerr << "web_corpus_lines: a conformance case is refused: " << l << "\n";
      status = 1; // else a case refused alike on both sides would pass
    }
  }
  return status;
}
