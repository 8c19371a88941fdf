#include "winnow/shader_era/plan.hpp"

namespace winnow::shader_era {

std::uint32_t plan::width_of(const view& v) const {
  const resource& r = resources.at(v.id);
  return v.level == 0 || v.level == view::all_levels ? r.width : r.level_width(v.level);
}

std::uint32_t plan::height_of(const view& v) const {
  const resource& r = resources.at(v.id);
  return v.level == 0 || v.level == view::all_levels ? r.height : r.level_height(v.level);
}

std::uint64_t plan::written(const pass& p) const {
  switch (p.kind) {
  case pass_kind::gather: return std::uint64_t{width_of(p.output)} * height_of(p.output);
  case pass_kind::mark: return p.items;
  case pass_kind::concat: return input.kept;
  }
  return 0;
}

traffic plan::traffic_model() const {
  // Words: a gather pass reads `reads` distinct words per word it writes — a word fetched again by a
  // neighbour or by the next step of a search is a cache hit, not memory traffic; the mark pass reads
  // R and writes one word per index; the concatenation reads each block's offset and count once and
  // every survivor once, and writes every survivor.
  double read = 0;
  std::uint64_t written_words = 0;
  for (const pass& p : passes) {
    const std::uint64_t w = written(p);
    written_words += w;
    switch (p.kind) {
    case pass_kind::gather: read += p.reads * static_cast<double>(w); break;
    case pass_kind::mark: read += static_cast<double>(p.items); break;
    case pass_kind::concat: read += static_cast<double>(2 * p.items + input.kept); break;
    }
  }
  return {4 * static_cast<std::uint64_t>(read), 4 * written_words, passes.size()};
}

} // namespace winnow::shader_era
