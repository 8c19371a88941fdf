#pragma once
/// What each pass of a shader-era algorithm writes, and its picture: `winnow trace` and the viewer run
/// the plan one pass at a time on a separate, untimed path (the timed run reads nothing back) and read
/// every pass's output back. Streams (the input, the compacted blocks, the output) are drawn by
/// validity, each valid payload in a colour of its own — an element keeps its colour wherever it
/// moves; everything else (counts, prefix sums, run lengths, pointers, tree levels) on viridis with its
/// value range. Block boundaries are marked; the concatenation shows each block's run.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "winnow/picture.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::shader_era {

/// Cases larger than this are refused by `winnow trace` and the viewer: too many to look at.
inline constexpr std::uint64_t max_traced_elements = std::uint64_t{16} << 20;

struct traced_pass {
  int number = 0;    ///< 0: the input; pass i of the plan is number i + 1
  std::string phase; ///< "input" for number 0
  std::string name, shader;
  view shown; ///< what is drawn: the pass's output (the stream for the mark pass)
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint32_t> words;
  bool stream = false;            ///< payloads (drawn by validity) or values (viridis)
  std::uint32_t block = 0;        ///< block width in this array's texels; 0 when it is not block-shaped
  std::uint32_t min = 0, max = 0; ///< of the words (for values; of the payloads otherwise)
  double ns = 0;                  ///< the pass alone on the API's timer (one run, no warm-up)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> spans; ///< concatenation: each block's [begin, end)
};

/// Runs `a`'s plan (prepared) one pass at a time, each alone on `t`, reading back what it wrote (the
/// output past the survivors, which no pass defines, as 0).
[[nodiscard]] std::vector<traced_pass> trace(plan_algorithm& a, timer& t);

/// Where a pass's texels are in its picture: texel (x, y) fills [x0 + x·scale, …) × [y0 + y·scale, …).
struct image_rect {
  int x0 = 0, y0 = 0, scale = 1;
};

/// The texels of a traced pass alone, `scale` pixels each, block boundaries drawn where scale ≥ 3.
/// `n` is the case's element count (the input's padding past it is drawn grey).
[[nodiscard]] picture texels(const traced_pass& p, std::uint64_t n, int scale);
/// The integer scale that shows `p` about `target` pixels wide (1 … 16).
[[nodiscard]] int scale_for(const traced_pass& p, int target = 512);
/// The pass's picture as `winnow trace` writes it: a title (number, phase, name, size, range), block
/// ticks, the texels at `scale`, a legend; `rect` receives where the texels are.
[[nodiscard]] picture pass_picture(const traced_pass& p, std::uint64_t n, int scale, image_rect* rect = nullptr);
/// What trace.json says of a pass, and the page's trace too (tools/web): number, phase, name, shader,
/// width, height, content ("stream" or "values"), block, min, max, ns, and words_fnv1a (fnv1a of its
/// words in 16 hex digits: two traces, of two APIs or two builds, compared word for word).
[[nodiscard]] nlohmann::ordered_json to_json(const traced_pass& p);
/// Every pass on one labelled grid (number, phase, name under each).
[[nodiscard]] picture contact_sheet(const std::vector<traced_pass>& passes, std::uint64_t n, const std::string& title);

} // namespace winnow::shader_era
