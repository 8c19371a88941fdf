// The corpus grammar: the families and their keys, sizes, parsing a spec into its canonical form
// and printing it back. The generators are in corpus_generate.cpp.
#include "winnow/corpus.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <optional>

#include "corpus_numbers.hpp"
#include "image_file.hpp"
#include "winnow/compat.hpp"
#include "winnow/error.hpp"

namespace winnow {
namespace {

using detail::key_uint;
using detail::to_real;
using detail::to_uint;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string format_real(double v) {
  std::array<char, 32> buf{};
  auto [end, ec] = winnow::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), end);
}

// A key's validator returns the canonical text, or throws usage_error (the caller adds context).
using canon_fn = std::function<std::string(std::string_view)>;

canon_fn fraction() {
  return [](std::string_view t) {
    auto v = to_real(t);
    if (!v || *v < 0 || *v > 1) throw usage_error("must be a number in [0, 1]");
    return format_real(*v);
  };
}
canon_fn at_least(double lo) {
  return [lo](std::string_view t) {
    auto v = to_real(t);
    if (!v || *v < lo) throw usage_error("must be a number ≥ " + format_real(lo));
    return format_real(*v);
  };
}
canon_fn integer(std::uint64_t lo, std::uint64_t hi) {
  return [lo, hi](std::string_view t) {
    auto v = to_uint(t);
    if (!v || *v < lo || *v > hi)
      throw usage_error("must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return std::to_string(*v);
  };
}
canon_fn fraction_or_uniform() {
  return [](std::string_view t) { return t == "uniform" ? std::string("uniform") : fraction()(t); };
}

struct key_def {
  key_info info;
  canon_fn canon;
};

struct family_def {
  family_info info;
  std::vector<canon_fn> canons; // parallel to info.keys
};

family_def family(std::string name, std::string help, std::vector<key_def> keys, bool sized = true) {
  family_def f{{std::move(name), std::move(help), sized, {}}, {}};
  for (auto& k : keys) {
    f.info.keys.push_back(std::move(k.info));
    f.canons.push_back(std::move(k.canon));
  }
  return f;
}

key_def seed_key() { return {{"seed", "1", "MT19937 seed"}, integer(0, 0xFFFF'FFFFull)}; }

const std::vector<family_def>& family_table() {
  static const std::vector<family_def> table = [] {
    std::vector<family_def> t;
    t.push_back(family("uniform", "each element valid with probability p",
                       {{{"p", "0.5", "fraction of valid elements"}, fraction()}, seed_key()}));
    t.push_back(family("runs", "alternating valid and invalid runs with geometric lengths",
                       {{{"valid", "32", "mean length of a valid run"}, at_least(1)},
                        {{"invalid", "32", "mean length of an invalid run"}, at_least(1)},
                        seed_key()}));
    t.push_back(family("brownian", "mean-reverting random walk thresholded to exactly round(p·n) valid elements",
                       {{{"p", "0.5", "fraction of valid elements"}, fraction()},
                        {{"scale", "256", "correlation length in elements"}, at_least(1)},
                        seed_key()}));
    for (const char* img : {"finger", "hand", "bunny"}) {
      const std::string name = img;
      const char* what = name == "finger" ? "high spatial frequency (ridges)"
                         : name == "hand" ? "low spatial frequency (one silhouette)"
                                          : "middle spatial frequency (spotted silhouette)";
      t.push_back(family(name,
                         std::string("procedural ") + img + " image, " + what +
                             "; a stand-in for Moreira et al.'s image; n = W×H, W = 2^ceil(log2(n)/2)",
                         {}));
      t.push_back(family("i_" + name, "negative of " + name, {}));
    }
    t.push_back(family("file", "file:PATH — a PNG or PGM image, valid where luminance ≥ threshold (alpha multiplies)",
                       {{{"threshold", "128", "luminance threshold 0-255"}, integer(0, 255)}}, false));
    t.push_back(family("all", "every element valid", {}));
    t.push_back(family("none", "no element valid", {}));
    t.push_back(family("single", "exactly one valid element",
                       {{{"at", "", "its index (default: the last)"}, integer(0, max_elements - 1)}}));
    t.push_back(family("alternating", "valid, invalid, valid, … starting with valid", {}));
    t.push_back(family(
        "removal", "removal list: every payload non-zero, R = round(k·n) unique shuffled indices",
        {{{"k", "0.1", "fraction of elements removed"}, fraction()},
         {{"r", "uniform", "fraction of removals inside the red zone [n−|R|, n), or uniform"}, fraction_or_uniform()},
         seed_key(),
         {{"g", "0", "gains: round(g·n) new elements appended after the n (§4.6 add and remove)", false},
          fraction()}}));
    return t;
  }();
  return table;
}

const family_def& find_family(std::string_view name) {
  for (const auto& f : family_table())
    if (f.info.name == name) return f;
  std::vector<std::string> names;
  for (const auto& f : family_table()) names.push_back(f.info.name);
  throw usage_error("corpus: unknown family '" + std::string(name) + "'" + did_you_mean(name, names) +
                    " (accepted: " + join(names) + ")");
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const auto pos = text.find(sep, start);
    out.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

} // namespace

const std::vector<family_info>& families() {
  static const std::vector<family_info> infos = [] {
    std::vector<family_info> v;
    for (const auto& f : family_table()) v.push_back(f.info);
    return v;
  }();
  return infos;
}

std::uint64_t parse_size(std::string_view text) {
  const std::string bad = "corpus: bad size '" + std::string(text) +
                          "' (expected digits with an optional K, M or G suffix, e.g. 1000, 256K, 4M)";
  if (text.empty()) throw usage_error(bad);
  std::uint64_t mult = 1;
  switch (text.back()) {
  case 'K': mult = 1ull << 10; break;
  case 'M': mult = 1ull << 20; break;
  case 'G': mult = 1ull << 30; break;
  default: break;
  }
  const auto digits = mult == 1 ? text : text.substr(0, text.size() - 1);
  auto v = to_uint(digits);
  if (!v) throw usage_error(bad);
  if (*v > max_elements / mult + 1 || *v * mult > max_elements)
    throw usage_error("corpus: size " + std::string(text) + " is over the limit of " + std::to_string(max_elements) +
                      " elements (payloads are index + 1 in 32 bits)");
  return *v * mult;
}

std::string format_size(std::uint64_t n) {
  for (auto [shift, suffix] : {std::pair{30, 'G'}, {20, 'M'}, {10, 'K'}})
    if (n != 0 && n % (1ull << shift) == 0) return std::to_string(n >> shift) + suffix;
  return std::to_string(n);
}

case_spec parse_spec(std::string_view text) {
  if (text.empty()) throw usage_error("corpus: empty case spec (expected family[:size][:key=value...])");
  case_spec s;
  auto parts = split(text, ':');
  const family_def& fam = find_family(parts[0]);
  s.family = fam.info.name;
  std::size_t next = 1;
  if (s.family == "file") {
    // The path may itself contain ':'; trailing key=value parts of known keys are keys.
    std::size_t end = parts.size();
    while (end > 1 && parts[end - 1].find('=') != std::string_view::npos &&
           std::any_of(fam.info.keys.begin(), fam.info.keys.end(),
                       [&](const key_info& k) { return parts[end - 1].starts_with(k.name + "="); }))
      --end;
    for (std::size_t i = 1; i < end; ++i) s.path += std::string(i > 1 ? ":" : "") + std::string(parts[i]);
    if (s.path.empty()) throw usage_error("corpus: file: needs a path (file:PATH[:threshold=T])");
    next = end;
  } else if (parts.size() > 1 && parts[1].find('=') == std::string_view::npos) {
    s.n = parse_size(parts[1]);
    next = 2;
  } else {
    s.n = default_elements;
  }
  for (std::size_t i = next; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string_view::npos)
      throw usage_error("corpus: '" + std::string(parts[i]) + "' in '" + std::string(text) +
                        "' is not key=value (the size, if any, comes right after the family)");
    const std::string key(parts[i].substr(0, eq));
    const auto value = parts[i].substr(eq + 1);
    std::size_t idx = fam.info.keys.size();
    for (std::size_t j = 0; j < fam.info.keys.size(); ++j)
      if (fam.info.keys[j].name == key) idx = j;
    if (idx == fam.info.keys.size()) {
      std::vector<std::string> names;
      for (const auto& k : fam.info.keys) names.push_back(k.name);
      throw usage_error("corpus: unknown key '" + key + "' for " + s.family + did_you_mean(key, names) +
                        (names.empty() ? " (it takes no keys)" : " (accepted: " + join(names) + ")"));
    }
    if (s.keys.contains(key)) throw usage_error("corpus: key '" + key + "' given twice in '" + std::string(text) + "'");
    try {
      s.keys[key] = fam.canons[idx](value);
    } catch (const usage_error& e) {
      throw usage_error("corpus: " + s.family + ": " + key + "='" + std::string(value) + "' " + e.what());
    }
  }
  for (const auto& k : fam.info.keys)
    if (!s.keys.contains(k.name) && !k.default_value.empty()) s.keys[k.name] = k.default_value;
  if (s.family == "single") {
    if (s.n == 0) throw usage_error("corpus: single needs at least one element");
    if (!s.keys.contains("at")) s.keys["at"] = std::to_string(s.n - 1);
    if (key_uint(s, "at") >= s.n)
      throw usage_error("corpus: single: at=" + s.keys["at"] + " must be below n = " + std::to_string(s.n));
  }
  if (gains_of(s) > 0 && s.keys.at("r") != "uniform")
    // r places removals in A's own tail [n−k, n); with gains the red zone is [n+j−k, n+j): r would
    // no longer mean what it says.
    throw usage_error("corpus: removal: r=" + s.keys.at("r") + " with gains (g=" + s.keys.at("g") +
                      "): the red zone moves by the gains, so r applies to cases without them");
  if (s.n + gains_of(s) > max_elements)
    throw usage_error("corpus: " + s.family + ": n + gains = " + std::to_string(s.n + gains_of(s)) +
                      " is over the limit of " + std::to_string(max_elements) + " elements");
  return s;
}

std::string to_string(const case_spec& s) {
  // Appends, not `":" + …`: GCC 12 warns -Wrestrict on that concatenation at -O3 (a false
  // positive, GCC bug 105651).
  std::string out = s.family;
  out += ':';
  out += s.family == "file" ? s.path : format_size(s.n);
  // Keys in the family's order, not alphabetical: the order the help text documents.
  for (const auto& k : find_family(s.family).info.keys)
    if (auto it = s.keys.find(k.name); it != s.keys.end() && (k.shown_when_default || it->second != k.default_value))
      out.append(":").append(k.name).append("=").append(it->second);
  return out;
}

std::uint64_t gains_of(const case_spec& s) {
  if (s.family != "removal") return 0;
  return static_cast<std::uint64_t>(std::llround(detail::key_real(s, "g") * static_cast<double>(s.n)));
}

std::uint64_t elements_of(const case_spec& s) {
  if (s.family != "file") return s.n + gains_of(s);
  const auto h = detail::read_image_header(s.path);
  return h.width * h.height;
}

std::uint64_t footprint_bytes(const case_spec& s) {
  const std::uint64_t n = elements_of(s);
  // stream + removal list (at most n) + reference (at most n), 4 bytes each; brownian also sorts;
  // a file: case decodes to 4 bytes a pixel (RGBA), then 1 (luminance) and 1 (mask), besides the
  // file's own bytes.
  if (s.family == "file") {
    std::error_code ec;
    const auto file = std::filesystem::file_size(s.path, ec);
    return 18 * n + (ec ? 0 : file);
  }
  return s.family == "brownian" ? 24 * n : 12 * n;
}

void check_source(const case_spec& spec) {
  if (spec.family == "file") (void)detail::read_image_header(spec.path);
}

} // namespace winnow
