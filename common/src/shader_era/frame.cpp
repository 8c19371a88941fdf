// The shader-era frame as data: the passes of Horn, Jumping Jack, RLZ and Binary-Tree inside the
// block frame, their loop bounds and their axes; and the HistoPyramid's passes, which need no blocks.
// Every pass names a shader of common/shaders and fills its argument block (args.hpp); the executors
// of gl/ and vulkan/ only run what is here.
#include "winnow/shader_era/frame.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "winnow/error.hpp"

namespace winnow::shader_era {

std::string_view method_name(concat_method m) {
  switch (m) {
  case concat_method::lines: return "lines";
  case concat_method::rects: return "rects";
  case concat_method::copy: return "copy";
  case concat_method::search: return "search";
  case concat_method::automatic: return "auto";
  case concat_method::stacks: return "stacks";
  }
  return "?";
}

namespace {

/// Appends passes and resources to a plan under construction.
class builder {
public:
  builder(plan& p, std::uint32_t max_width) : m_plan(p), m_max(max_width) {}

  /// `segment`: the texels of a row that belong together (B for the stream and what the in-block
  /// passes write; the row for a stream scan's rows; 0 for arrays of one value per block).
  resource_id add(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t levels = 0,
                  std::uint32_t segment = 0) {
    m_plan.resources.push_back({std::move(name), width, height, levels, segment});
    return static_cast<resource_id>(m_plan.resources.size() - 1);
  }
  resource_id add(std::string name, const stream_layout& l, std::uint32_t segment = 0) {
    return add(std::move(name), l.width, l.height, 0, segment);
  }

  std::uint32_t log2_width(const view& v) const { return log2_exact(m_plan.width_of(v)); }

  /// A gather pass writing all of `out`.
  template <class A>
  void gather(std::string phase, std::string name, std::string shader, std::vector<view> in, view out, const A& args,
              double reads, bool loop = false) {
    pass p;
    p.phase = std::move(phase);
    p.name = std::move(name);
    p.kind = pass_kind::gather;
    p.shader = std::move(shader);
    p.output = out;
    p.io = io_for(in, out);
    p.io.extent = static_cast<std::uint32_t>(std::uint64_t{m_plan.width_of(out)} * m_plan.height_of(out));
    p.inputs = std::move(in);
    p.args = words_of(args);
    if constexpr (requires { A::constants; }) p.constants = A::constants;
    p.reads = reads;
    p.loop = loop;
    p.trips = m_plan.trips;
    m_plan.passes.push_back(std::move(p));
  }

  io_args io_for(const std::vector<view>& in, const view& out) const {
    if (in.size() > 3) throw error("winnow::shader_era: a pass reads at most 3 inputs");
    io_args io;
    io.out_log2w = log2_width(out);
    io.out_height = m_plan.height_of(out);
    for (std::size_t k = 0; k < in.size(); ++k)
      io.in_log2w[k] =
          in[k].level == view::all_levels ? log2_exact(m_plan.resources.at(in[k].id).width) : log2_width(in[k]);
    return io;
  }

  /// Inclusive scan of map(src) within segments of `seg` words of a width × height array.
  /// Hillis-Steele: log2 seg passes ping-ponging two arrays (the map fused into pass 0). Blelloch:
  /// log2 seg up-sweep passes onto a pyramid, then log2 seg down-sweep passes, the last adding the
  /// element itself (exclusive → inclusive). One-word segments: one pass that applies the map, or
  /// none for the identity.
  view segmented_scan(const std::string& phase, const std::string& label, view src, std::uint32_t width,
                      std::uint32_t height, std::uint32_t seg, scan_kind kind, value_map map) {
    const std::uint32_t levels = log2_exact(seg);
    const auto m = static_cast<u32>(map);
    if (levels == 0) {
      if (map == value_map::identity) return src;
      const view out{add(label + " scan", width, height, 0, seg)};
      gather(phase, label + " map", "scan_hillis", {src}, out, scan_hillis_args{1, 1, m}, 1);
      return out;
    }
    if (kind == scan_kind::hillis) {
      const view ping[2] = {{add(label + " scan ping", width, height, 0, seg)},
                            {levels > 1 ? add(label + " scan pong", width, height, 0, seg) : 0}};
      view in = src;
      for (std::uint32_t k = 0; k < levels; ++k) {
        const view out = ping[k % 2];
        gather(phase, label + " hillis +" + std::to_string(1u << k), "scan_hillis", {in}, out,
               scan_hillis_args{1u << k, seg, k == 0 ? m : 0u}, 1);
        in = out;
      }
      return in;
    }
    const resource_id up = add(label + " scan up-sweep", width, height, levels, seg);
    const resource_id down = levels > 1 ? add(label + " scan down-sweep", width, height, levels - 1, seg) : 0;
    const view result{add(label + " scan", width, height, 0, seg)};
    for (std::uint32_t p = 1; p <= levels; ++p)
      gather(phase, label + " up " + std::to_string(p), "scan_up", {p == 1 ? src : view{up, p - 1}}, view{up, p},
             scan_up_args{seg, p == 1 ? m : 0u}, 2);
    for (std::uint32_t p = levels; p >= 1; --p) {
      const bool top = p == levels;
      const view sibling = p == 1 ? src : view{up, p - 1};
      // The top pass has no parent: it reads its sibling in that slot and ignores it.
      const view parent = top ? sibling : view{down, p};
      gather(phase, label + " down " + std::to_string(p - 1), "scan_down", {parent, sibling},
             p == 1 ? result : view{down, p - 1}, scan_down_args{top ? 1u : 0u, p == 1 ? 1u : 0u, p == 1 ? m : 0u, seg},
             top ? 1 : 1.5);
    }
    return result;
  }

  /// Exclusive scan of a stream laid out by layout_for (its padding holds 0): scan each row, scan
  /// the row totals the same way (recursively: label/2, label/3, …), add them back. The inter-block
  /// offsets.
  view stream_scan(const std::string& phase, const std::string& label, view src, const stream_layout& l, scan_kind kind,
                   int depth = 1) {
    const view inclusive = segmented_scan(phase, label, src, l.width, l.height, l.width, kind, value_map::identity);
    view rows = src;
    bool has_rows = false;
    if (l.height > 1) {
      const stream_layout t = layout_for(l.height, 1, m_max);
      const view totals{add(label + " row totals", t)};
      gather(phase, label + " row totals", "scan_gather", {inclusive}, totals, scan_gather_args{l.width, l.height}, 1);
      const std::string base = depth == 1 ? label : label.substr(0, label.rfind('/'));
      rows = stream_scan(phase, base + "/" + std::to_string(depth + 1), totals, t, kind, depth + 1);
      has_rows = true;
    }
    const view out{add(label + " exclusive", l)};
    gather(phase, label + " finish", "scan_finish", {inclusive, src, rows}, out,
           scan_finish_args{has_rows ? 1u : 0u, l.log2_width}, 2);
    return out;
  }

  plan& m_plan;
  std::uint32_t m_max;
};

/// RLZ's run lengths: RL[i] = the length of the invalid run starting at i, cut at the block's end.
view run_lengths(builder& b, const plan& pl) {
  const std::uint32_t B = pl.params.block, L = log2_exact(B), W = pl.layout.width, H = pl.layout.height;
  const auto invalid = static_cast<u32>(value_map::invalid_flag);
  const view stream{pl.stream};
  if (!pl.params.runs_tree) {
    // Modified recursive doubling (M09 Alg. 2): after the pass with offset o, RL[i] = min(run(i), 2o).
    const view ping[2] = {{b.add("runs ping", W, H, 0, B)}, {b.add("runs pong", W, H, 0, B)}};
    view in = stream;
    for (std::uint32_t k = 0; k < L; ++k) {
      b.gather("runs", "doubling +" + std::to_string(1u << k), "rl_double", {in}, ping[k % 2],
               rl_double_args{1u << k, B, k == 0 ? invalid : 0u}, 1);
      in = ping[k % 2];
    }
    return in;
  }
  // Modified up-sweep and down-sweep (M09 Alg. 3-4).
  const resource_id up = b.add("runs up-sweep", W, H, L, B);
  const resource_id down = L > 1 ? b.add("runs down-sweep", W, H, L - 1, B) : 0;
  const view rl{b.add("run lengths", W, H, 0, B)};
  for (std::uint32_t p = 1; p <= L; ++p)
    b.gather("runs", "up " + std::to_string(p), "rl_up", {p == 1 ? stream : view{up, p - 1}}, view{up, p},
             rl_up_args{1u << (p - 1), p == 1 ? invalid : 0u}, 2);
  for (std::uint32_t p = L; p-- > 0;) {
    const bool top = p == L - 1;
    const view level = p == 0 ? stream : view{up, p};
    b.gather("runs", "down " + std::to_string(p), "rl_down", {top ? level : view{down, p + 1}, level},
             p == 0 ? rl : view{down, p}, rl_down_args{top ? 1u : 0u, 1u << p, p == 0 ? 1u : 0u, p == 0 ? invalid : 0u},
             top ? 1 : 1.5);
  }
  return rl;
}

/// The in-block passes of `a`: they write pl.compacted; returns where the count pass reads each
/// block's count and how (block_count_args::mode: 0 = B − the block's last inclusive scan of the
/// invalid flags, 1 = one count per block).
std::pair<view, u32> in_block(builder& b, plan& pl) {
  const std::uint32_t B = pl.params.block, L = log2_exact(B), W = pl.layout.width, H = pl.layout.height;
  const view stream{pl.stream}, compacted{pl.compacted};
  switch (pl.algorithm) {
  case algorithm_kind::horn:
  case algorithm_kind::jj: {
    const view p = b.segmented_scan("scan", "in-block", stream, W, H, B, pl.params.scan, value_map::invalid_flag);
    const bool horn = pl.algorithm == algorithm_kind::horn;
    if (horn && pl.params.horn_steps) {
      // Horn's own form: log2 B passes of one step each, the distance ping-ponging, then a gather.
      const view d[2] = {{b.add("Horn distance ping", W, H, 0, B)},
                         {L > 1 ? b.add("Horn distance pong", W, H, 0, B) : 0}};
      view at = p;
      for (std::uint32_t k = 0; k < L; ++k) {
        const std::uint32_t step = B >> (k + 1);
        b.gather("search", "Horn step " + std::to_string(step), "horn_step", {at, p}, d[k % 2],
                 horn_step_args{B, step, k == 0 ? 1u : 0u}, 2);
        at = d[k % 2];
      }
      b.gather("search", "Horn gather", "horn_gather", {stream, p, at}, compacted, horn_gather_args{B}, 3);
      return {p, 0};
    }
    b.gather("search", horn ? "Horn search" : "Jumping Jack search", horn ? "horn_search" : "jj_search", {stream, p},
             compacted, search_args{B, pl.loop_bound}, 2, true);
    return {p, 0};
  }
  case algorithm_kind::rlz: {
    const view rl = run_lengths(b, pl);
    // The filter (keep a run's length at its start only) is fused into the scan's first read.
    const view prl = b.segmented_scan("scan", "run-length", rl, W, H, B, pl.params.scan, value_map::run_start);
    b.gather("search", "RLZ forward search", "rlz_search", {stream, prl}, compacted,
             rlz_search_args{B, pl.loop_bound, pl.params.fast_search ? 1u : 0u}, 2, true);
    return {prl, 0}; // pRL[last] = the invalid elements of the block, as P[last] is
  }
  case algorithm_kind::bt: {
    const resource_id levels = b.add("tree levels", W, H, L, B);
    for (std::uint32_t p = 1; p <= L; ++p)
      b.gather("reduce", "reduce " + std::to_string(p), "scan_up", {p == 1 ? stream : view{levels, p - 1}},
               view{levels, p}, scan_up_args{B, p == 1 ? static_cast<u32>(value_map::valid_flag) : 0u}, 2);
    // Reads the stream and ½ + ¼ + … of it in the levels: 2 words per output.
    b.gather("traverse", "traversal", "bt_traverse", {stream, view{levels, view::all_levels}}, compacted,
             bt_traverse_args{B, L}, 2, true);
    return {view{levels, L}, 1}; // the root of every block: its count
  }
  case algorithm_kind::histopyramid: break; // no blocks: histopyramid_plan
  }
  throw error("winnow::shader_era: unknown algorithm");
}

} // namespace

std::string_view name_of(algorithm_kind a) {
  switch (a) {
  case algorithm_kind::horn: return "horn";
  case algorithm_kind::jj: return "jj";
  case algorithm_kind::rlz: return "rlz";
  case algorithm_kind::bt: return "bt";
  case algorithm_kind::histopyramid: return "histopyramid";
  }
  return "?";
}

std::uint32_t loop_bound(algorithm_kind a, std::uint32_t block, bool fast_search) {
  switch (a) {
  case algorithm_kind::horn: return log2_exact(block); // binary lifting: ⌈log2(z_b + 1)⌉ ≤ log2 B steps
  case algorithm_kind::jj: return block - 1;           // the hops visit distinct invalid elements: ≤ z_b ≤ B − 1
  case algorithm_kind::rlz:
    return fast_search ? block / 4 + 1 // each trip passes an invalid run: ≤ B/2 + 1, two hops halve it
                       : block / 2 + 1;
  case algorithm_kind::bt: return log2_exact(block); // a trip per level descended
  case algorithm_kind::histopyramid: return 0;       // no loop: one written-out step per level
  }
  return 0;
}

algorithm_info info(std::string api, algorithm_kind a, const std::vector<concat_method>& concat,
                    const std::vector<param_axis>& executor_axes) {
  if (a == algorithm_kind::histopyramid)
    return {.api = std::move(api),
            .name = std::string(name_of(a)),
            .summary = "HistoPyramid (Ziegler et al. 2006): a 2D pyramid of valid counts, 4:1 per level, traversed "
                       "from the apex per output; no blocks; survivors in the pyramid's (Z) order",
            .stable = false,
            .in_place = false,
            .input = input_kind::predicate,
            .axes = executor_axes};
  std::vector<std::string> accepted;
  for (const concat_method m : concat) accepted.emplace_back(method_name(m));
  // The concatenation is the same code for every algorithm: Horn's sweep covers every method, the
  // others sweep the default only.
  const bool sweep_all = a == algorithm_kind::horn;
  std::vector<param_axis> axes = {
      integer_axis("block", "block size B: elements compacted together, a power of two ≤ the layout width", "128",
                   {"32", "128", "512", "2048"}, 32, 2048, true),
      choice_axis("scan", "prefix sum: Hillis-Steele recursive doubling or Blelloch balanced tree", "hillis",
                  {"hillis", "blelloch"}),
      choice_axis(
          "concat",
          "block concatenation: on the graphics pipeline, rectangles 8 rows high over an output laid out "
          "in stacks of 8 (stacks), or as Moreira et al. draw them, lines or 1-pixel rectangles (auto: lines where "
          "a start-up probe finds that they place every run exactly, else rectangles); a workgroup's copy or "
          "a search per output element on compute",
          accepted.front(), sweep_all ? accepted : std::vector<std::string>{accepted.front()}, accepted),
      // The grid sweeps the default only: a limit refuses plans, it never changes one (plan_test).
      choice_axis("loop_limit",
                  "none, or 256: refuse a block size whose search loop may need more trips, as the GeForce 7300 Go's "
                  "fragment loops of at most 256 iterations did (Moreira et al. have no JJ at B = 512)",
                  "none", {"none"}, {"none", "256"})};
  std::string summary;
  bool stable = true;
  switch (a) {
  case algorithm_kind::horn:
    summary = "Horn's gather-search on the in-block prefix sum of invalid flags; block concatenation";
    axes.push_back(choice_axis("search",
                               "loop: the binary search in one pass's loop; steps: one binary step per pass, "
                               "log2 B passes and a gather, as Horn (2005) ran it without loops",
                               "loop", {"loop", "steps"}));
    break;
  case algorithm_kind::jj:
    summary = "Jumping Jack: holes follow MAS = B − P pointers to the tail's valid elements; block concatenation";
    stable = false;
    break;
  case algorithm_kind::rlz:
    summary = "RLZ: run lengths of invalid runs, their scan, and a forward search; block concatenation";
    axes.push_back(choice_axis("runs",
                               "run lengths by modified recursive doubling (M09 Alg. 2) or up/down-sweep (Alg. 3-4)",
                               "doubling", {"doubling", "tree"}));
    axes.push_back(choice_axis("search", "forward search: one hop per loop trip, or two (M09's faster form)", "fast",
                               {"plain", "fast"}));
    break;
  case algorithm_kind::bt:
    summary = "Binary-Tree: reduction pyramid of valid counts and per-output traversal; block concatenation";
    break;
  case algorithm_kind::histopyramid: break; // returned above
  }
  axes.insert(axes.end(), executor_axes.begin(), executor_axes.end());
  return {.api = std::move(api),
          .name = std::string(name_of(a)),
          .summary = std::move(summary),
          .stable = stable,
          .in_place = false,
          .input = input_kind::predicate,
          .axes = std::move(axes)};
}

plan_params plan_params_of(const param_set& p) {
  plan_params out;
  if (!p.contains("block")) return out; // the HistoPyramid: none of the frame's parameters
  out.block = static_cast<std::uint32_t>(p.integer("block"));
  out.scan = p.choice<scan_kind>("scan", {{"hillis", scan_kind::hillis}, {"blelloch", scan_kind::blelloch}});
  out.concat = p.choice<concat_method>("concat", {{"lines", concat_method::lines},
                                                  {"rects", concat_method::rects},
                                                  {"copy", concat_method::copy},
                                                  {"search", concat_method::search},
                                                  {"auto", concat_method::automatic},
                                                  {"stacks", concat_method::stacks}});
  if (p.contains("runs")) out.runs_tree = p.choice<bool>("runs", {{"doubling", false}, {"tree", true}});
  if (p.contains("search")) {
    const std::string& s = p.text("search"); // RLZ: plain/fast; Horn: loop/steps
    out.fast_search = s != "plain";
    out.horn_steps = s == "steps";
  }
  if (p.contains("loop_limit")) out.loop_limit = p.choice<std::uint32_t>("loop_limit", {{"none", 0u}, {"256", 256u}});
  return out;
}

void add_stream(plan& pl, std::uint32_t segment, std::uint32_t max_width) {
  builder b(pl, max_width);
  pl.stream = b.add("stream", pl.layout, segment);
  if (!pl.marks()) return;
  const stream_layout r = layout_for(pl.input.removals, 1, max_width);
  pl.removals = b.add("removal list", r);
  pass p;
  p.phase = "mark";
  p.name = "mark removals";
  p.kind = pass_kind::mark;
  p.shader = "mark";
  p.inputs = {view{pl.removals}};
  p.output = view{pl.stream};
  p.io = b.io_for(p.inputs, p.output);
  p.io.extent = static_cast<std::uint32_t>(pl.input.removals);
  p.args = words_of(mark_args{static_cast<u32>(pl.input.removals)});
  p.items = pl.input.removals;
  pl.passes.push_back(std::move(p));
}

namespace {
/// `count` words two rows high (as wide as max_width allows), not near-square: on the H100's fragment
/// paths the sample pass took 23 µs over 64 × 64 fragments and 14 over 2048 × 2 (or 4096 × 1) — the
/// rasterizer deals the screen out in tiles, and a small square falls to few of them
/// (docs/algorithms.md § Adaptive, "Sample"). Compute is unaffected (7.7 µs either way).
stream_layout two_rows(std::uint32_t count, std::uint32_t max_width) {
  return layout_for(count, std::min(std::bit_ceil((count + 1) / 2), max_width), max_width);
}
} // namespace

view add_sample(plan& pl, view stream, const sample_shape& s, std::uint32_t max_width) {
  builder b(pl, max_width);
  const view out{b.add("sample", two_rows(s.words, max_width))};
  b.gather("sample", "sample", "sample", {stream}, out,
           sample_args{static_cast<u32>(s.n), static_cast<u32>(s.stride), s.span}, s.span);
  pl.passes.back().one_word = true;
  return out;
}

view add_sample_parts(plan& pl, view sample, const sample_shape& s, std::uint32_t max_width) {
  builder b(pl, max_width);
  const view parts{b.add("sample parts", two_rows(16 * s.regions, max_width))};
  b.gather("choose", "sample parts", "sample_sum", {sample}, parts, sample_sum_args{s.words, s.regions, 0}, 16);
  return parts;
}

choice_views add_choice(plan& pl, view sample, const sample_shape& s, std::uint32_t candidates,
                        std::uint32_t max_width) {
  const view parts = add_sample_parts(pl, sample, s, max_width);
  builder b(pl, max_width);
  const view regions{b.add("sample regions", layout_for(s.regions, 1, max_width))};
  b.gather("choose", "sample regions", "sample_sum", {parts}, regions, sample_sum_args{s.words, s.regions, 1}, 16);
  choice_views out{view{b.add("choice model", layout_for(4 * u32{candidates} + 2 * s.regions, 1, max_width))},
                   view{b.add("choice", layout_for(candidates, 1, max_width))}};
  b.gather("choose", "choose", "choose", {regions, out.model}, out.choice, choose_args{s.regions, candidates},
           3.0 * s.regions + 4.0 * candidates);
  return out;
}

/// The HistoPyramid (Ziegler et al. 2006) over the whole stream, no blocks: the stream laid out W × H
/// (H ≤ W, W a power of two) is the base of a W × W square whose rows past H count nothing; level p
/// holds in (W >> p)² texels the valid count of each 2^p × 2^p square; the apex (level log2 W, one
/// texel) is the survivors' count. Output k < count descends from the apex, choosing at each level the
/// child square (in the order (0,0), (1,0), (0,1), (1,1)) whose counts cover k, down to a stream word.
/// docs/algorithms.md, "HistoPyramid".
plan histopyramid_plan(plan pl, std::uint32_t max_width) {
  pl.loop_check = false; // no loop to check
  pl.layout = layout_for(pl.input.n, 2, max_width);
  const std::uint32_t W = pl.layout.width, H = pl.layout.height, m = log2_exact(W);
  if (m > max_bound_levels)
    throw unavailable("winnow::shader_era: the HistoPyramid of " + std::to_string(pl.input.n) + " elements needs " +
                      std::to_string(m) + " levels (at most " + std::to_string(max_bound_levels) + ")");
  add_stream(pl, 0, max_width);
  builder b(pl, max_width);
  const resource_id levels = b.add("histopyramid", W, W, m);
  pl.resources[levels].quad = true;
  for (std::uint32_t p = 1; p <= m; ++p)
    b.gather("reduce", "reduce " + std::to_string(p), "hp_reduce", {p == 1 ? view{pl.stream} : view{levels, p - 1}},
             view{levels, p}, hp_reduce_args{p == 1 ? 1u : 0u, p == 1 ? H : W >> (p - 1)}, 4);
  pl.output = b.add("output", pl.layout);
  // Reads the stream and a third of it in the levels: 4/3 words per output.
  b.gather("traverse", "traversal", "hp_traverse", {view{pl.stream}, view{levels, view::all_levels}}, view{pl.output},
           hp_traverse_args{m, H}, 4.0 / 3.0);
  pl.total = view{levels, m};
  return pl;
}

plan build_plan(algorithm_kind a, const plan_params& params, const plan_case& c, std::uint32_t max_width,
                bool loop_check) {
  plan pl;
  pl.algorithm = a;
  pl.params = params;
  pl.input = c;
  if (a == algorithm_kind::histopyramid) return histopyramid_plan(std::move(pl), max_width);
  // Horn's search by steps has no loop: nothing would write the trips, so there is nothing to check.
  pl.loop_check = loop_check && !(a == algorithm_kind::horn && params.horn_steps);
  const std::uint32_t B = params.block;
  if (params.concat == concat_method::automatic)
    throw error("winnow::shader_era: concat=auto reached build_plan unresolved (plan_algorithm probes it first)");
  if (a == algorithm_kind::bt && B > 2048) // bt_traverse.glsl writes out the levels 11 … 1
    throw unavailable("winnow::shader_era: bt descends at most 11 levels: block " + std::to_string(B) + " > 2048");
  if (B > max_width)
    throw unavailable("winnow::shader_era: block " + std::to_string(B) + " is wider than the layout limit " +
                      std::to_string(max_width));
  pl.layout = layout_for(c.n, B, max_width);
  pl.loop_bound = loop_bound(a, B, params.fast_search);
  if (params.loop_limit && pl.loop_bound > params.loop_limit)
    throw unavailable("winnow::shader_era: " + std::string(name_of(a)) + " at block " + std::to_string(B) +
                      " may loop " + std::to_string(pl.loop_bound) + " times, over loop_limit=" +
                      std::to_string(params.loop_limit) + " (the GeForce 7300 Go's fragment loops)");
  add_stream(pl, B, max_width);
  builder b(pl, max_width);
  pl.compacted = b.add("compacted blocks", pl.layout, B);
  if (pl.loop_check) pl.trips = b.add("loop trips", pl.layout, B);

  const auto [count_from, mode] = in_block(b, pl);

  pl.blocks = pl.layout.size() / B;
  const stream_layout counts = layout_for(pl.blocks, 1, max_width);
  pl.counts = view{b.add("block counts", counts)};
  b.gather("count", "block counts", "block_count", {count_from}, pl.counts,
           block_count_args{mode, static_cast<u32>(pl.blocks), B}, 1);
  pl.offsets = b.stream_scan("count", "offsets", pl.counts, counts, params.scan);

  pl.output = b.add("output", pl.layout.width, output_rows(pl.layout.height, params.concat));
  pass p;
  p.phase = "concat";
  p.name = std::string("concatenation (") + std::string(method_name(params.concat)) + ")";
  p.kind = pass_kind::concat;
  p.shader = "concat";
  p.inputs = {pl.offsets, pl.counts, view{pl.compacted}};
  p.output = view{pl.output};
  p.io = b.io_for(p.inputs, p.output);
  p.io.extent = static_cast<std::uint32_t>(pl.layout.size());
  p.args = words_of(concat_args{B, static_cast<u32>(pl.blocks), static_cast<u32>(params.concat)});
  p.items = pl.blocks;
  p.method = params.concat;
  pl.passes.push_back(std::move(p));
  if (pl.layout.size() > 0x7fffffffull)
    throw unavailable("winnow::shader_era: " + std::to_string(c.n) + " elements need indices past 31 bits");
  return pl;
}

plan copy_chain(std::uint32_t side, std::size_t passes) {
  plan pl;
  pl.layout = layout_for(std::uint64_t{side} * side, side, side);
  pl.input.n = pl.layout.size();
  builder b(pl, side);
  const view ping[2] = {{b.add("ping", pl.layout)}, {b.add("pong", pl.layout)}};
  pl.stream = ping[0].id;
  for (std::size_t i = 0; i < passes; ++i)
    b.gather("copy", "copy " + std::to_string(i), "scan_hillis", {ping[i % 2]}, ping[(i + 1) % 2],
             scan_hillis_args{1, 1, static_cast<u32>(value_map::identity)}, 1);
  return pl;
}

} // namespace winnow::shader_era
