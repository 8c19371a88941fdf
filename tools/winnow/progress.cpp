#include "progress.hpp"

#include <algorithm>
#include <utility>

#include "table.hpp"

namespace winnow::cli {

progress::progress(std::size_t total, std::vector<progress_item> items) : m_total(total), m_items(std::move(items)) {
  std::size_t jobs = 0;
  for (const auto& it : m_items) jobs = std::max(jobs, it.job + 1);
  m_seen.resize(jobs);
}

double progress::seconds_from(std::size_t from) const {
  // A job not seen yet: the model times the pace of everything learned from so far.
  const double pace = m_modelled > 0 ? m_took / m_modelled : 1;
  double s = 0;
  for (std::size_t i = from; i < m_items.size(); ++i) {
    const progress_item& it = m_items[i];
    s += it.model * (m_seen[it.job].n >= 0 ? m_seen[it.job].ratio : pace);
  }
  return s;
}

std::string progress::line(double elapsed_s) {
  ++m_done;
  std::string text = "[" + std::to_string(m_done) + "/" + std::to_string(m_total) + " " + format_clock(elapsed_s);
  if (m_modelled > 0) text += ", ~" + format_clock(seconds_from(m_next)) + " left";
  return text + "]";
}

void progress::finished(double elapsed_s, bool learn) {
  if (m_next >= m_items.size()) return;
  const progress_item& it = m_items[m_next++];
  const double took = std::max(0.0, elapsed_s - m_last_end);
  m_last_end = elapsed_s;
  if (!learn || !(it.model > 0)) return;
  m_took += took;
  m_modelled += it.model;
  if (it.n >= m_seen[it.job].n) m_seen[it.job] = {it.n, took / it.model};
}

} // namespace winnow::cli
