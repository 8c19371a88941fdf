#include "cuda_algorithm.hpp"

#include "check.hpp"
#include "dispatch/mark.hpp"
#include "event_timer.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

void cuda_algorithm::prepare(const workload& w, const param_set& p, const prepare_options&) {
  context& ctx = context::get(); // throws unavailable without a device
  m_w = &w;
  m_n = w.size();
  m_k = w.removals.size();
  for (const std::uint32_t r : w.removals)
    if (r >= m_n) throw error("winnow::cuda: removal index " + std::to_string(r) + " ≥ n = " + std::to_string(m_n));
  m_pristine.resize(m_n);
  m_pristine.upload(w.data.data(), m_n, ctx.stream());
  m_removals.resize(m_k);
  m_removals.upload(w.removals.data(), m_k, ctx.stream());
  m_count.resize(1);
  prepare_device(p);
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}

void cuda_algorithm::reset() {
  reset_device();
  WINNOW_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), stream()));
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(stream()));
  m_launches = 0;
}

std::unique_ptr<winnow::timer> cuda_algorithm::make_timer() { return std::make_unique<event_timer>(stream()); }

void cuda_algorithm::flush_caches() { context::get().flush_l2(); }

traffic cuda_algorithm::bytes_moved() const {
  traffic t = traffic_model();
  t.launches = m_launches;
  return t;
}

void cuda_algorithm::mark(timer& t, std::uint32_t* d_a, unsigned words) {
  if (!m_w->removal_list) return;
  t.phase("mark");
  if (m_k == 0) return;
  launch_mark(d_a, words, m_removals.get(), m_k, stream());
  ++m_launches;
}

traffic cuda_algorithm::mark_traffic() const {
  if (!m_w->removal_list) return {};
  // R is read once; each mark is a 4-byte scattered write (a 32-byte sector on the bus).
  return {4 * m_k, 4 * m_k, 0};
}

std::size_t cuda_algorithm::read_count() const {
  const auto h = m_count.download(1, stream());
  return static_cast<std::size_t>(h[0]);
}

void cuda_algorithm::check_count(std::size_t count, const char* who) const {
  if (count > m_n)
    throw error(std::string(who) + ": the device reported " + std::to_string(count) + " kept elements of " +
                std::to_string(m_n));
}

std::vector<std::uint32_t> cuda_algorithm::payloads_of(const std::vector<std::uint32_t>& wide, unsigned words,
                                                       const char* who) {
  std::vector<std::uint32_t> values(wide.size() / words);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = wide[i * words];
    for (unsigned w = 1; w < words; ++w)
      if (wide[i * words + w] != widen_word(values[i], w))
        throw error(std::string(who) + ": output element " + std::to_string(i) + " (payload " +
                    std::to_string(values[i]) + ") has word " + std::to_string(w) + " = " +
                    std::to_string(wide[i * words + w]) + ", expected " + std::to_string(widen_word(values[i], w)) +
                    ": an element was torn apart");
  }
  return values;
}

} // namespace winnow::cuda
