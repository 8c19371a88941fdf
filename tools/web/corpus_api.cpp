// The web build's entry points (WINNOW_WEB; issue 59): the corpus, the reference compaction and the
// verifier of winnow::common, for JavaScript through plain C functions (no embind: the page and the
// tests call them with the module's ccall/cwrap or as Module._winnow_*). One case at a time: making one
// replaces the last, and every pointer handed out before. Pointers are byte offsets into the module's
// memory (HEAPU32[p >> 2 …]); read the HEAP views again after a call, as memory may have grown.
//
//   winnow_make_case("uniform:4M:p=0.1")        0, or 1 with winnow_message() saying why
//   winnow_case_checksum()                      "8848ce1360a3a71a": checksum(), as every native build gives it
//   winnow_reference_count(), winnow_reference_data()
//   winnow_verify(p, count, stable)             0 when the words at p are a right result, else 1 and the message
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"
#include "winnow/verify.hpp"

namespace {

struct current_case {
  winnow::workload w;
  std::string checksum;                                ///< 16 hex digits
  std::optional<std::vector<std::uint32_t>> reference; ///< made when first asked for
};

std::optional<current_case> g_case;
std::string g_message; ///< the last failure's text; "" after a success

const std::vector<std::uint32_t>& reference() {
  if (!g_case->reference) g_case->reference = winnow::reference_compact(g_case->w);
  return *g_case->reference;
}

std::uint32_t words(std::size_t n) { return static_cast<std::uint32_t>(n); }

} // namespace

extern "C" {

/// Makes the case `spec` (corpus.hpp's grammar) the current one. 0 on success; 1 when the spec is
/// refused or the case cannot be made, with winnow_message() naming why (the native build's text).
EMSCRIPTEN_KEEPALIVE int winnow_make_case(const char* spec) {
  g_case.reset();
  try {
    winnow::workload w = winnow::generate(std::string(spec));
    char sum[17];
    std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(winnow::checksum(w)));
    g_case = current_case{std::move(w), sum, std::nullopt};
    g_message.clear();
    return 0;
  } catch (const std::exception& e) {
    g_message = e.what();
    return 1;
  }
}

/// The last failure's message ("" after a success).
EMSCRIPTEN_KEEPALIVE const char* winnow_message() { return g_message.c_str(); }

/// The current case's canonical spec, as records print it; "" when there is none.
EMSCRIPTEN_KEEPALIVE const char* winnow_case_spec() { return g_case ? g_case->w.spec.c_str() : ""; }
/// Its checksum (FNV-1a over the stream, then the removal list) in 16 hex digits.
EMSCRIPTEN_KEEPALIVE const char* winnow_case_checksum() { return g_case ? g_case->checksum.c_str() : ""; }
/// The stream: winnow_case_size() words at winnow_case_data().
EMSCRIPTEN_KEEPALIVE std::uint32_t winnow_case_size() { return g_case ? words(g_case->w.size()) : 0; }
EMSCRIPTEN_KEEPALIVE const std::uint32_t* winnow_case_data() { return g_case ? g_case->w.data.data() : nullptr; }
/// The removal list (the invalid indices, shuffled, for a predicate case).
EMSCRIPTEN_KEEPALIVE std::uint32_t winnow_case_removal_count() { return g_case ? words(g_case->w.removals.size()) : 0; }
EMSCRIPTEN_KEEPALIVE const std::uint32_t* winnow_case_removals() {
  return g_case ? g_case->w.removals.data() : nullptr;
}
/// 1 for a removal: case (the stream carries no marks; the list says what goes), else 0.
EMSCRIPTEN_KEEPALIVE int winnow_case_removal_list() { return g_case && g_case->w.removal_list ? 1 : 0; }
/// An image case's row width (0: none).
EMSCRIPTEN_KEEPALIVE std::uint32_t winnow_case_width() { return g_case ? words(g_case->w.width) : 0; }

/// The reference compaction of the current case (reference.hpp): its count and its words.
EMSCRIPTEN_KEEPALIVE std::uint32_t winnow_reference_count() { return g_case ? words(reference().size()) : 0; }
EMSCRIPTEN_KEEPALIVE const std::uint32_t* winnow_reference_data() { return g_case ? reference().data() : nullptr; }

/// Checks `count` words at `values` as a compaction of the current case (verify.hpp; `stable` nonzero:
/// element by element, else as a multiset). 0 when right; 1 when wrong or there is no case, with
/// winnow_message() naming the first difference as the native verifier does.
EMSCRIPTEN_KEEPALIVE int winnow_verify(const std::uint32_t* values, std::uint32_t count, int stable) {
  if (!g_case) {
    g_message = "winnow_verify: no case (winnow_make_case first)";
    return 1;
  }
  const winnow::compaction_output out{std::vector<std::uint32_t>(values, values + count), std::nullopt};
  const winnow::verdict v = winnow::verify(g_case->w, reference(), out, stable != 0);
  g_message = v.message;
  return v.ok ? 0 : 1;
}

/// The conformance cases (corpus.hpp), one spec a line.
EMSCRIPTEN_KEEPALIVE const char* winnow_conformance_cases() {
  static const std::string lines = [] {
    std::string s;
    for (const std::string& c : winnow::conformance_cases()) s += c + "\n";
    return s;
  }();
  return lines.c_str();
}

} // extern "C"
