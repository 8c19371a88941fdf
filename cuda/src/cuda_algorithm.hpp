#pragma once
// What every cuda algorithm shares (host side): the stream and its removal list uploaded once in
// prepare as pristine copies, the `mark` phase of predicate algorithms on removal-list cases, CUDA
// event timers, the L2 flush, and the result: read back (result()) or checked where it lies
// (matches_on_device), from where each subclass says its run left it (output()). Subclasses allocate
// their own working buffers in prepare_device and restore them in reset_device, with device-to-device
// copies.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "buffer.hpp"
#include "context.hpp"
#include "device_check.hpp"
#include "winnow/algorithm.hpp"

namespace winnow::cuda {

class cuda_algorithm : public algorithm {
public:
  void prepare(const workload& w, const param_set& p, const prepare_options& o) final;
  void reset() final;
  /// Reads back what output() points at: the payloads (an element torn apart throws), the input of an
  /// out-of-place run, and the zeros it promises after the count.
  [[nodiscard]] compaction_output result() final;
  /// The check where output() lies (device_check.hpp).
  [[nodiscard]] std::optional<bool> matches_on_device(const expected_output& expected, bool stable) final;
  [[nodiscard]] std::unique_ptr<winnow::timer> make_timer() override;
  void flush_caches() override;
  [[nodiscard]] traffic bytes_moved() const override;

protected:
  /// Where the last run left its result (after checking its count: check_count).
  [[nodiscard]] virtual device_result output() = 0;
  virtual void prepare_device(const param_set& p) = 0;
  virtual void reset_device() = 0;
  /// This run's traffic apart from the launches, which run() tallies in m_launches.
  [[nodiscard]] virtual traffic traffic_model() const = 0;

  [[nodiscard]] cudaStream_t stream() const { return context::get().stream(); }
  [[nodiscard]] const device_properties& device() const { return context::get().props(); }
  /// Predicate algorithms on removal-list cases: payload 0 into word 0 of every element of R,
  /// timed as its own phase. Nothing on predicate cases.
  void mark(timer& t, std::uint32_t* d_a, unsigned words = 1);
  [[nodiscard]] traffic mark_traffic() const;
  /// The count a kernel left in m_count (synchronous; result() only).
  [[nodiscard]] std::size_t read_count() const;
  /// Fails loudly when a count read back from the device is impossible.
  void check_count(std::size_t count, const char* who) const;

  const workload* m_w = nullptr;
  /// The case's copies, shared by its records (prepare_options::copies); nullptr: none.
  device_copies* m_copies = nullptr;
  std::size_t m_n = 0, m_k = 0;
  device_buffer<std::uint32_t> m_pristine; ///< the stream as generated
  device_buffer<std::uint32_t> m_removals; ///< R as generated (read-only for predicate algorithms)
  device_buffer<unsigned long long> m_count;
  std::uint64_t m_launches = 0;
};

/// An integer axis value as a size.
[[nodiscard]] inline std::size_t param_size(const param_set& p, std::string_view key) {
  return static_cast<std::size_t>(p.integer(key));
}

} // namespace winnow::cuda
