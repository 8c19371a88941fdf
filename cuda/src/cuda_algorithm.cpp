#include "cuda_algorithm.hpp"

#include "case_input.hpp"
#include "check.hpp"
#include "dispatch/mark.hpp"
#include "winnow/host_memory.hpp"
#include "event_timer.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

void cuda_algorithm::prepare(const workload& w, const param_set& p, const prepare_options& o) {
  context& ctx = context::get(); // throws unavailable without a device
  m_w = &w;
  m_n = w.size();
  m_k = w.removals.size();
  m_copies = o.copies;
  m_pristine.resize(m_n);
  m_removals.resize(m_k);
  if (const case_input* in = shared_input(o.copies, w, ctx.stream())) {
    m_pristine.copy_from(in->data, ctx.stream());
    m_removals.copy_from(in->removals, ctx.stream());
  } else {
    check_removal_list(w);
    m_pristine.upload(w.data.data(), m_n, ctx.stream());
    m_removals.upload(w.removals.data(), m_k, ctx.stream());
  }
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

std::unique_ptr<winnow::timer> cuda_algorithm::make_timer() {
  return std::make_unique<event_timer>(stream(), held_launches());
}

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

compaction_output cuda_algorithm::result() {
  const device_result out = output();
  const cudaStream_t s = stream();
  const unsigned words = out.words;
  const std::vector<std::uint32_t> wide = download(out.values, std::max(out.zeros_to, out.count) * words, s);
  compaction_output r;
  r.values = zeroed_vector<std::uint32_t>(out.count);
  for (std::size_t i = 0; i < out.count; ++i) {
    const std::uint32_t v = r.values[i] = wide[i * words];
    for (unsigned w = 1; w < words; ++w)
      if (wide[i * words + w] != widen_word(v, w))
        throw error(std::string(out.who) + ": output element " + std::to_string(i) + " (payload " + std::to_string(v) +
                    ") has word " + std::to_string(w) + " = " + std::to_string(wide[i * words + w]) + ", expected " +
                    std::to_string(widen_word(v, w)) + ": an element was torn apart");
  }
  for (std::size_t i = out.count; i < out.zeros_to; ++i)
    if (wide[i] != 0)
      throw error(std::string(out.who) + ": position " + std::to_string(i) + " after the " + std::to_string(out.count) +
                  " valid elements holds " + std::to_string(wide[i]) + ", expected an invalid element (0)");
  if (out.input_after) {
    const std::vector<std::uint32_t> in = download(out.input_after, m_n * words, s);
    std::vector<std::uint32_t> input = zeroed_vector<std::uint32_t>(m_n);
    for (std::size_t i = 0; i < m_n; ++i) input[i] = in[i * words];
    r.input_after = std::move(input);
  }
  return r;
}

std::optional<bool> cuda_algorithm::matches_on_device(const expected_output& expected, bool stable) {
  const device_result out = output();
  if (out.count != expected.values.size()) return false;
  const case_input* input = shared_input(&expected.copies, expected.w, stream());
  try { // the copy and the bitmaps its check makes on first use
    expected_copy& copy = expected.copies.get<expected_copy>(
        "cuda", [&] { return std::make_unique<expected_copy>(expected.w, expected.values, input, stream()); });
    return copy.matches(out, expected.w, input, stable, stream());
  } catch (const unavailable&) {
    return std::nullopt; // no room on the device beside the run's buffers (device_buffer's message): the host checks
  }
}

} // namespace winnow::cuda
