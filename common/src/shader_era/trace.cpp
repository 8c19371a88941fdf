#include "winnow/shader_era/trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow::shader_era {
namespace {

constexpr rgb black{0, 0, 0}, white{255, 255, 255}, grey{70, 70, 70}, ink{230, 230, 230}, background{24, 24, 28},
    boundary{128, 128, 128};
constexpr rgb span_colour[2] = {{255, 160, 40}, {40, 200, 255}};

/// A valid payload's colour: its place in the input (payload − 1 of n) along a hue circle, light.
rgb payload_colour(std::uint32_t v, std::uint64_t n) {
  const double h = 0.83 * static_cast<double>(v - 1) / static_cast<double>(std::max<std::uint64_t>(n, 1)) * 6.0;
  const double s = 0.6, l = 0.95, c = l * s, x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)), m = l - c;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h) % 6) {
  case 0: r = c, g = x; break;
  case 1: r = x, g = c; break;
  case 2: g = c, b = x; break;
  case 3: g = x, b = c; break;
  case 4: r = x, b = c; break;
  default: r = c, b = x; break;
  }
  auto u8 = [&](double f) { return static_cast<std::uint8_t>(std::lround((f + m) * 255)); };
  return {u8(r), u8(g), u8(b)};
}

traced_pass describe(const plan& pl, int number, const std::string& phase, const std::string& name,
                     const std::string& shader, const view& shown) {
  traced_pass t;
  t.number = number;
  t.phase = phase;
  t.name = name;
  t.shader = shader;
  t.shown = shown;
  t.width = pl.width_of(shown);
  // An output laid out in stacks is shown in the survivors' order, over the stream's rows (without the
  // rows that make its last band whole).
  t.height = shown.id == pl.output && pl.output_in_stacks() ? pl.layout.height : pl.height_of(shown);
  t.stream = shown.id == pl.stream || shown.id == pl.compacted || shown.id == pl.output;
  const resource& r = pl.resources.at(shown.id);
  const std::uint32_t level = shown.level == view::all_levels ? 0 : shown.level;
  if (r.segment) t.block = std::max<std::uint32_t>(1, r.segment >> level);
  return t;
}

/// The pass's value range over the words it shows (a stream's zeros are invalid, not values).
void value_range(traced_pass& t) {
  t.min = ~0u;
  t.max = 0;
  for (const std::uint32_t w : t.words) {
    if (t.stream && w == 0) continue;
    t.min = std::min(t.min, w);
    t.max = std::max(t.max, w);
  }
  if (t.min > t.max) t.min = t.max = 0;
}

void read_back(executor& ex, const plan& pl, traced_pass& t) {
  const std::uint64_t words = std::uint64_t{t.width} * t.height;
  // The output through read_survivors: in the survivors' order where it is laid out in stacks.
  t.words = t.shown.id == pl.output ? read_survivors(ex, pl, words) : ex.read(t.shown, 0, words);
  value_range(t);
}

std::string two_digits(int n) {
  char b[16];
  std::snprintf(b, sizeof b, "%02d", n);
  return b;
}

} // namespace

std::vector<traced_pass> trace(plan_algorithm& a, timer& t) {
  const plan& pl = a.the_plan();
  if (pl.input.n > max_traced_elements)
    throw usage_error("trace: " + std::to_string(pl.input.n) + " elements are too many to look at (at most " +
                      std::to_string(max_traced_elements) + ", 16M)");
  executor& ex = a.exec();
  std::vector<traced_pass> out;
  out.push_back(describe(pl, 0, "input", "the stream", "", view{pl.stream}));
  read_back(ex, pl, out.back());
  for (std::size_t i = 0; i < pl.passes.size(); ++i) {
    const pass& p = pl.passes[i];
    ex.begin();
    t.start();
    t.phase(p.name);
    ex.record(i);
    ex.end();
    t.stop();
    traced_pass tp = describe(pl, static_cast<int>(i) + 1, p.phase, p.name, p.shader, p.output);
    const auto times = t.read();
    tp.ns = times.empty() ? 0 : times.front().ns;
    read_back(ex, pl, tp);
    if (p.kind == pass_kind::concat) {
      // Past the survivors the output holds whatever the API left there: show it as invalid.
      const std::uint64_t kept =
          ex.read(pl.offsets, pl.blocks - 1, 1).at(0) + ex.read(pl.counts, pl.blocks - 1, 1).at(0);
      std::fill(tp.words.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(kept, tp.words.size())),
                tp.words.end(), 0u);
      value_range(tp); // from the survivors alone: the words past them were never written

      if (pl.blocks <= 65536) {
        const auto off = ex.read(pl.offsets, 0, pl.blocks), cnt = ex.read(pl.counts, 0, pl.blocks);
        for (std::size_t b = 0; b < pl.blocks; ++b) tp.spans.emplace_back(off[b], off[b] + cnt[b]);
      }
    }
    out.push_back(std::move(tp));
  }
  return out;
}

nlohmann::ordered_json to_json(const traced_pass& p) {
  char fnv[17];
  std::snprintf(fnv, sizeof fnv, "%016llx", static_cast<unsigned long long>(fnv1a(p.words)));
  return {{"number", p.number},
          {"phase", p.phase},
          {"name", p.name},
          {"shader", p.shader},
          {"width", p.width},
          {"height", p.height},
          {"content", p.stream ? "stream" : "values"},
          {"block", p.block},
          {"min", p.min},
          {"max", p.max},
          {"ns", p.ns},
          {"words_fnv1a", fnv}};
}

int scale_for(const traced_pass& p, int target) {
  const int by_width = target / static_cast<int>(std::max<std::uint32_t>(p.width, 1));
  const int by_height = 2 * target / static_cast<int>(std::max<std::uint32_t>(p.height, 1));
  return std::clamp(std::min(by_width, by_height), 1, 16);
}

picture texels(const traced_pass& p, std::uint64_t n, int scale) {
  picture out(static_cast<int>(p.width) * scale, static_cast<int>(p.height) * scale);
  const double range = p.max > p.min ? static_cast<double>(p.max - p.min) : 1.0;
  for (std::uint32_t y = 0; y < p.height; ++y)
    for (std::uint32_t x = 0; x < p.width; ++x) {
      const std::uint64_t i = std::uint64_t{y} * p.width + x;
      const std::uint32_t v = p.words[i];
      rgb c;
      if (!p.stream) c = viridis((static_cast<double>(v) - p.min) / range);
      else if (p.number == 0 && i >= n) c = grey; // padding past n
      else c = v == 0 ? black : payload_colour(v, n);
      out.fill(static_cast<int>(x) * scale, static_cast<int>(y) * scale, scale, scale, c);
    }
  if (scale >= 3 && p.block && p.block < p.width)
    for (std::uint32_t x = p.block; x < p.width; x += p.block)
      out.fill(static_cast<int>(x) * scale, 0, 1, out.height(), boundary);
  if (scale >= 3)
    for (std::size_t b = 0; b < p.spans.size(); ++b) {
      const auto [begin, end] = p.spans[b];
      for (std::uint32_t t = begin; t < end; ++t)
        out.fill(static_cast<int>(t % p.width) * scale, static_cast<int>(t / p.width) * scale + scale - 1, scale, 1,
                 span_colour[b % 2]);
    }
  return out;
}

picture pass_picture(const traced_pass& p, std::uint64_t n, int scale, image_rect* rect) {
  const picture body = texels(p, n, scale);
  const int margin = 8, line = picture::text_height(2) + 4, ticks = 8, legend = 44;
  const std::string title = two_digits(p.number) + "  " + p.phase + ":  " + p.name;
  std::string sub = std::to_string(p.width) + " x " + std::to_string(p.height);
  if (p.stream) {
    std::size_t valid = 0;
    for (const std::uint32_t v : p.words) valid += v != 0;
    sub += ",  " + std::to_string(valid) + " valid";
  } else {
    sub += ",  values " + std::to_string(p.min) + " .. " + std::to_string(p.max);
  }
  if (p.block) sub += ",  blocks of " + std::to_string(p.block);
  if (p.ns > 0) {
    char t[32];
    std::snprintf(t, sizeof t, ",  %.1f us", p.ns / 1e3);
    sub += t;
  }
  const std::string legend_text =
      p.stream ? "valid: colour = place in the input" : "viridis over the pass's value range";
  const int w = std::max({body.width(), picture::text_width(title), picture::text_width(sub),
                          272 + picture::text_width(legend_text), 250 + picture::text_width(legend_text)}) +
                2 * margin;
  const int h = margin + 2 * line + ticks + body.height() + legend + margin;
  picture out(w, h, background);
  out.text(margin, margin, title, white);
  out.text(margin, margin + line, sub, ink);
  const int x0 = margin, y0 = margin + 2 * line + ticks;
  if (p.block && p.block * static_cast<std::uint32_t>(scale) >= 3)
    for (std::uint32_t x = 0; x <= p.width; x += p.block)
      out.fill(x0 + static_cast<int>(x) * scale, y0 - ticks, 1, ticks - 2, ink);
  out.blit(body, x0, y0);
  if (rect) *rect = {x0, y0, scale};
  const int ly = y0 + body.height() + 10;
  if (p.stream) {
    out.fill(x0, ly, 14, 14, black);
    out.fill(x0, ly, 14, 1, ink);
    out.text(x0 + 20, ly, "invalid", ink);
    for (int i = 0; i < 120; ++i)
      out.fill(x0 + 120 + i, ly, 1, 14,
               payload_colour(static_cast<std::uint32_t>(1 + static_cast<double>(i) / 120 *
                                                                 static_cast<double>(std::max<std::uint64_t>(n, 1))),
                              n));
    out.text(x0 + 250, ly, legend_text, ink);
    if (!p.spans.empty()) out.text(x0, ly + 20, "underline: the run each block's draw wrote", ink);
  } else {
    for (int i = 0; i < 256; ++i) out.fill(x0 + i, ly, 1, 14, viridis(i / 255.0));
    out.text(x0, ly + 18, std::to_string(p.min), ink);
    const std::string hi = std::to_string(p.max);
    out.text(x0 + 256 - picture::text_width(hi), ly + 18, hi, ink);
    out.text(x0 + 272, ly, legend_text, ink);
  }
  return out;
}

picture contact_sheet(const std::vector<traced_pass>& passes, std::uint64_t n, const std::string& title) {
  const int cell = 240, label = 2 * (picture::text_height(2) + 2), gap = 12, margin = 12;
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(passes.size())))));
  const int rows = (static_cast<int>(passes.size()) + columns - 1) / columns;
  // The title may run over lines ('\n'): stb_easy_font steps 12 font pixels per line.
  const int title_lines = 1 + static_cast<int>(std::count(title.begin(), title.end(), '\n'));
  const int top = margin + (title_lines - 1) * 24 + picture::text_height(2) + 10;
  picture out(std::max(margin * 2 + columns * (cell + gap), 2 * margin + picture::text_width(title)),
              top + rows * (cell + label + gap) + margin, background);
  out.text(margin, margin, title, white);
  const std::size_t max_chars = static_cast<std::size_t>((cell + gap) / 12); // labels may run into the gap
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const traced_pass& p = passes[i];
    const int cx = margin + static_cast<int>(i % static_cast<std::size_t>(columns)) * (cell + gap);
    const int cy = top + static_cast<int>(i / static_cast<std::size_t>(columns)) * (cell + label + gap);
    const picture thumb = picture::fit(texels(p, n, 1), cell, cell);
    out.fill(cx, cy, cell, cell, {40, 40, 46});
    out.blit(thumb, cx, cy);
    out.text(cx, cy + cell + 2, (two_digits(p.number) + " " + p.phase).substr(0, max_chars), white);
    out.text(cx, cy + cell + 2 + picture::text_height(2) + 2, p.name.substr(0, max_chars), ink);
  }
  return out;
}

} // namespace winnow::shader_era
