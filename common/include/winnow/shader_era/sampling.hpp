#pragma once
/// What the adaptive algorithm learns of a stream before it chooses (adaptive.hpp): one cheap pass
/// (common/shaders/sample.glsl) reads a few thousand short windows spread evenly over the stream and
/// writes one word each — the window's valid count and how many neighbours in it differ in validity.
/// The regions of consecutive windows give each a density and a rate of changes (runs against
/// noise), as Moreira et al. suggest estimating per region. The CPU computes the same words for the
/// training cases, so the model is fitted on exactly what it is later given.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace winnow::shader_era {

/// `words` windows of `span` consecutive elements, window i from element i · stride on, in
/// `regions` groups of consecutive windows. Every element is a window's when n ≤ words · span.
struct sample_shape {
  std::uint64_t n = 0;
  std::uint32_t words = 1;
  std::uint32_t span = 32;
  std::uint64_t stride = 32;
  std::uint32_t regions = 1;
};

inline constexpr std::uint32_t sample_windows = 4096; ///< at most: 128K elements read, 16 KiB back
inline constexpr std::uint32_t sample_span = 32;      ///< elements a window reads
inline constexpr std::uint32_t sample_regions = 16;   ///< at most
// What the shaders assume: sample.glsl's loop reads at most 32 elements a window; sample_sum.glsl
// sums at most 16 × 16 windows a region, whose packed counts must stay within their 16 bits.
static_assert(sample_span <= 32, "sample.glsl reads at most 32 elements a window");
static_assert(sample_regions == 16, "choose.glsl unrolls its loops over 16 regions");
static_assert((sample_windows + sample_regions - 1) / sample_regions <= 256,
              "sample_sum.glsl sums 16 × 16 windows a region");
static_assert(256 * sample_span < 65536, "a region's packed valid count and changes must fit 16 bits each");

[[nodiscard]] sample_shape sample_shape_for(std::uint64_t n);

/// The words sample.glsl writes for `data` (the stream's n elements), on the CPU.
[[nodiscard]] std::vector<std::uint32_t> sample_words(std::span<const std::uint32_t> data, const sample_shape& s);

/// One region's estimate: its share of the elements sampled, the fraction of them valid, and the
/// fraction of neighbouring pairs in its windows that differ in validity (2p(1 − p) for noise of
/// density p, near 0 for long runs).
struct region_estimate {
  double weight = 0;
  double density = 0;
  double changes = 0;
};
[[nodiscard]] std::vector<region_estimate> estimate(std::span<const std::uint32_t> words, const sample_shape& s);
/// The same from each region's sum of its words (valid counts in the low 16 bits, changes in the
/// high 16, as the words themselves): what the adaptive algorithm's host choice reads back.
[[nodiscard]] std::vector<region_estimate> estimate_from_sums(std::span<const std::uint32_t> sums,
                                                              const sample_shape& s);

/// Region r's elements sampled and neighbouring pairs among them: what the shape alone decides, not
/// the data (estimate() divides by them; the choice pass is given them).
struct region_extent {
  double elements = 0;
  double pairs = 0;
};
[[nodiscard]] std::vector<region_extent> region_extents(const sample_shape& s);

/// The model's features of a stream: [1, p, p², c] averaged over the regions by weight, so a stream
/// half empty and half full (E[p²] = 0.5) is told from uniform noise of density 0.5 (0.25); then the
/// last replaced by its square root, √E[c]. The change rate spans orders of magnitude (images 0.001-
/// 0.01, noise up to 0.5), and times fitted on √c picked better on the H100's moreira records than on
/// c itself — on the training cases (the worst of 17 at 1.03 × the best against 1.06 on the Vulkan
/// fragment path, 1.03 against 1.08 on GL) as on the images it never saw
/// (docs/algorithms.md § Adaptive, "Sample").
inline constexpr std::size_t feature_count = 4;
using features = std::array<double, feature_count>;
[[nodiscard]] features features_of(const std::vector<region_estimate>& regions);

/// What the choice pass (choose.glsl) reads besides the regions' sums, as float bits: each
/// candidate's four coefficients (its predicted ns = features · coefficients), then each region's
/// elements and pairs (region_extents).
[[nodiscard]] std::vector<std::uint32_t> choice_model_words(const std::vector<features>& coefficients,
                                                            const sample_shape& s);

/// Which candidates the choice can pick for some stream (features · coefficients lowest, the first of
/// equals, as choose.glsl picks): where every prediction depends on the mean density alone (the
/// coefficients of p² and c zero, as the pass model's are), those on the lower envelope of their
/// lines over p in [0, 1] — the others need not be prepared, nor recorded and skipped on the device;
/// for any other model, every candidate.
[[nodiscard]] std::vector<bool> ever_fastest(const std::vector<features>& coefficients);

} // namespace winnow::shader_era
