// The corpus generators: the stream (and the removal list) of a parsed spec, the same bytes on every
// machine (integer-only derivations from MT19937), and their checksum. The grammar is corpus_spec.cpp.
#include "winnow/corpus.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "corpus_numbers.hpp"
#include "image_file.hpp"
#include "images.hpp"
#include "random.hpp"
#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"

namespace winnow {
namespace {

using detail::image_width;
using detail::key_real;
using detail::key_uint;
using detail::rng;

/// Indices of the invalid elements, shuffled: the removal list a predicate case gives Redzone.
std::vector<std::uint32_t> invalid_indices(const std::vector<std::uint32_t>& data, std::uint32_t seed) {
  // Counted first, so that the list lies in storage advised for huge pages (host_memory.hpp): the
  // shuffle's random swaps took 40 % longer in 4 KiB pages (64M elements here: 32 against 23 ns an
  // element; the whole of uniform:64M:p=0.1, 2.9 against 2.5 s).
  std::vector<std::uint32_t> r;
  reserve_recycled(r, static_cast<std::size_t>(std::count(data.begin(), data.end(), 0u)));
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i] == 0) r.push_back(static_cast<std::uint32_t>(i));
  rng g(seed ^ 0x9E3779B9u);
  detail::shuffle(r, g);
  return r;
}

/// A template, not a std::function: called once per element (512M times for the largest cases).
template <class Valid> void fill_payloads(std::vector<std::uint32_t>& data, const Valid& valid) {
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = valid(i) ? static_cast<std::uint32_t>(i + 1) : 0u;
}

/// m distinct values of [lo, lo + len), appended to out (order: ascending; shuffled later).
void sample_distinct(rng& g, std::uint64_t lo, std::uint64_t len, std::uint64_t m, std::vector<std::uint32_t>& out) {
  // Rejection into a bitmap costs at most 2 draws per pick while picking at most half; pick the
  // complement when more than half is wanted. The candidates are drawn a batch ahead and their
  // bitmap words prefetched (the misses overlap); a batch is never more than the picks still
  // wanted, each draw picking at most one, so the draws are exactly those of one at a time.
  const bool complement = m > len / 2;
  const std::uint64_t picks = complement ? len - m : m;
  scratch_vector<std::uint64_t> bitmap((len + 63) / 64);
  std::vector<std::uint64_t>& hit = bitmap.v;
  constexpr std::uint64_t ahead = 32;
  std::uint32_t x[ahead];
  for (std::uint64_t done = 0; done < picks;) {
    const std::uint64_t b = std::min(ahead, picks - done);
    for (std::uint64_t k = 0; k < b; ++k) {
      x[k] = g.below(static_cast<std::uint32_t>(len));
      detail::prefetch_for_write(&hit[x[k] >> 6]);
    }
    for (std::uint64_t k = 0; k < b; ++k) {
      std::uint64_t& word = hit[x[k] >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (x[k] & 63u);
      done += (word & bit) == 0;
      word |= bit;
    }
  }
  for (std::uint64_t word = 0; word < hit.size(); ++word) {
    std::uint64_t wanted = complement ? ~hit[word] : hit[word];
    if (word + 1 == hit.size() && len % 64 != 0) wanted &= (std::uint64_t{1} << (len % 64)) - 1; // past len
    for (; wanted != 0; wanted &= wanted - 1)
      out.push_back(static_cast<std::uint32_t>(lo + 64 * word + static_cast<std::uint64_t>(std::countr_zero(wanted))));
  }
}

void generate_removal(const case_spec& s, workload& w) {
  const std::uint64_t n = s.n;
  // The gains G follow A with the payloads their indices in A + G give them: distinct from A's.
  w.gains = gains_of(s);
  resize_zeroed(w.data, n + w.gains);
  fill_payloads(w.data, [](std::size_t) { return true; });
  const auto k = static_cast<std::uint64_t>(std::llround(key_real(s, "k") * static_cast<double>(n)));
  rng g(static_cast<std::uint32_t>(key_uint(s, "seed")));
  reserve_recycled(w.removals, k);
  if (s.keys.at("r") == "uniform") {
    sample_distinct(g, 0, n, k, w.removals);
  } else {
    // r: the fraction of R that lies in the red zone [n-k, n) (Redzone paper, Fig. 6).
    const auto in_zone = static_cast<std::uint64_t>(std::llround(key_real(s, "r") * static_cast<double>(k)));
    const std::uint64_t outside = k - in_zone;
    if (outside > n - k)
      throw usage_error("corpus: " + to_string(s) + ": r is too small: " + std::to_string(outside) +
                        " removals outside the red zone, but only " + std::to_string(n - k) + " elements lie there");
    sample_distinct(g, n - k, k, in_zone, w.removals);
    sample_distinct(g, 0, n - k, outside, w.removals);
  }
  detail::shuffle(w.removals, g);
}

void generate_brownian(const case_spec& s, workload& w) {
  const std::size_t n = w.size();
  // Ornstein-Uhlenbeck in integers: x += -x/scale + noise. The walk's level is thresholded at its
  // own quantile, so the density is exactly round(p·n), ties broken by index.
  const auto scale = static_cast<std::int64_t>(std::llround(key_real(s, "scale")));
  rng g(static_cast<std::uint32_t>(key_uint(s, "seed")));
  std::vector<std::int64_t> level(n);
  std::int64_t x = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x += -x / scale + (static_cast<std::int64_t>(g.next() >> 16) - 32768);
    level[i] = x;
  }
  const auto valid = static_cast<std::size_t>(std::llround(key_real(s, "p") * static_cast<double>(n)));
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto higher = [&](std::uint32_t a, std::uint32_t b) {
    return level[a] > level[b] || (level[a] == level[b] && a < b);
  };
  if (valid > 0 && valid < n)
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(valid), order.end(), higher);
  std::fill(w.data.begin(), w.data.end(), 0u);
  for (std::size_t i = 0; i < valid; ++i) w.data[order[i]] = order[i] + 1;
}

} // namespace

workload generate(const case_spec& s) {
  workload w;
  w.spec = to_string(s);
  std::uint64_t n = s.n;
  std::vector<std::uint8_t> mask; // image families and file:
  if (s.family == "file") {
    auto img = detail::load_image(s.path);
    const auto threshold = key_uint(s, "threshold");
    n = img.luminance.size();
    if (n > max_elements) throw usage_error("corpus: file:" + s.path + " has more pixels than the corpus limit");
    mask.resize(n);
    for (std::size_t i = 0; i < n; ++i) mask[i] = img.luminance[i] >= threshold ? 1 : 0;
    w.width = img.width;
  }
  resize_zeroed(w.data, n);
  const std::string& f = s.family;
  const bool negative = f.starts_with("i_");
  const std::string base = negative ? f.substr(2) : f;
  std::uint32_t shuffle_seed = s.keys.contains("seed") ? static_cast<std::uint32_t>(key_uint(s, "seed")) : 0u;

  if (base == "finger" || base == "hand" || base == "bunny") {
    w.width = image_width(n);
    const std::size_t height = w.width == 0 ? 0 : (n + w.width - 1) / w.width;
    mask = detail::render_image(base, w.width, height);
    fill_payloads(w.data, [&](std::size_t i) { return (mask[i] != 0) != negative; });
  } else if (f == "file") {
    fill_payloads(w.data, [&](std::size_t i) { return mask[i] != 0; });
  } else if (f == "uniform") {
    rng g(shuffle_seed);
    const auto t = rng::threshold_of(key_real(s, "p"));
    fill_payloads(w.data, [&](std::size_t) { return g.chance(t); });
  } else if (f == "runs") {
    rng g(shuffle_seed);
    const std::uint64_t end_valid = rng::threshold_of(1.0 / key_real(s, "valid"));
    const std::uint64_t end_invalid = rng::threshold_of(1.0 / key_real(s, "invalid"));
    bool valid = g.chance(rng::threshold_of(0.5));
    // A run ends after each element with probability 1/mean: geometric lengths with that mean.
    fill_payloads(w.data, [&](std::size_t) {
      const bool v = valid;
      if (g.chance(v ? end_valid : end_invalid)) valid = !valid;
      return v;
    });
  } else if (f == "brownian") {
    generate_brownian(s, w);
  } else if (f == "all") {
    fill_payloads(w.data, [](std::size_t) { return true; });
  } else if (f == "none") {
    fill_payloads(w.data, [](std::size_t) { return false; });
  } else if (f == "single") {
    const auto at = key_uint(s, "at");
    fill_payloads(w.data, [&](std::size_t i) { return i == at; });
  } else if (f == "alternating") {
    fill_payloads(w.data, [](std::size_t i) { return i % 2 == 0; });
  } else if (f == "removal") {
    w.removal_list = true;
    generate_removal(s, w);
    return w;
  } else {
    throw error("corpus: family '" + f + "' has no generator"); // a family added to the table only
  }
  w.removals = invalid_indices(w.data, shuffle_seed);
  return w;
}

const std::vector<std::string>& conformance_cases() {
  // Edge cases, sizes that are no multiple of any block or tile (100003 is prime), every corpus
  // family, the negatives and images at 256K, the removal-list extremes (k = 0, 1, n-1, n; all of R
  // inside or outside the red zone), gains appended (§4.6; with all of A removed, only G survives)
  // and one large size.
  static const std::vector<std::string> cases = {"all:0",
                                                 "all:1",
                                                 "none:1",
                                                 "single:1",
                                                 "all:1000",
                                                 "none:1000",
                                                 "single:1000",
                                                 "single:1000:at=0",
                                                 "alternating:1001",
                                                 "uniform:100003:p=0.02",
                                                 "uniform:100003:p=0.1",
                                                 "uniform:100003:p=0.5",
                                                 "uniform:100003:p=0.9",
                                                 "runs:100003",
                                                 "runs:65537:valid=1:invalid=300",
                                                 "runs:65537:valid=300:invalid=1",
                                                 "brownian:100003:p=0.3",
                                                 "finger:256K",
                                                 "i_finger:256K",
                                                 "hand:256K",
                                                 "i_hand:256K",
                                                 "bunny:256K",
                                                 "i_bunny:256K",
                                                 "finger:100003",
                                                 "removal:100003:k=0",
                                                 "removal:100003:k=0.02",
                                                 "removal:100003:k=0.4:r=0",
                                                 "removal:100003:k=0.5:r=1",
                                                 "removal:100003:k=0.3:r=0.5",
                                                 "removal:1000:k=0.001",
                                                 "removal:1000:k=0.999",
                                                 "removal:1000:k=1",
                                                 "removal:100003:k=0.02:g=0.01",
                                                 "removal:1000:k=1:g=0.25",
                                                 "uniform:4M:p=0.5"};
  return cases;
}

workload workload_from(std::vector<std::uint32_t> data, std::string name) {
  if (data.size() > max_elements)
    throw usage_error("workload " + name + ": " + std::to_string(data.size()) + " elements, over the limit of " +
                      std::to_string(max_elements));
  workload w;
  w.spec = std::move(name);
  w.data = std::move(data);
  w.removals = invalid_indices(w.data, 0);
  return w;
}

std::uint64_t fnv1a(std::span<const std::uint32_t> words, std::uint64_t h) {
  for (const std::uint32_t x : words)
    for (int b = 0; b < 4; ++b) {
      h ^= (x >> (8 * b)) & 0xFFu;
      h *= 0x100000001b3ull;
    }
  return h;
}

std::uint64_t checksum(const workload& w) { return fnv1a(w.removals, fnv1a(w.data)); }

} // namespace winnow
