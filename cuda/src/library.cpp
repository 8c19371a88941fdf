// cuda/cub_if, cuda/cub_flagged, cuda/thrust_copy_if, cuda/thrust_remove_if — the library
// baselines, each with the marking phase the Redzone paper adds to its competitors.
#include "algorithms.hpp"
#include "check.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/cub.hpp"
#include "dispatch/thrust.hpp"
#include "dispatch/mark.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {
namespace {

param_axis place_axis() {
  return choice_axis("place", "out: a separate output; in: compacted over the input", "out", {"out", "in"});
}

/// cub::DeviceSelect::If (payload != 0) or ::Flagged (a byte stencil).
class cub_select final : public cuda_algorithm {
public:
  explicit cub_select(bool flagged) : m_flagged(flagged) {}

  void run(timer& t) override {
    if (m_flagged) {
      // The stencil is the input of DeviceSelect::Flagged: R marks it (flag 0) on removal-list
      // cases, a map from the payloads makes it on predicate cases. Either is timed.
      if (m_w->removal_list) {
        t.phase("mark");
        if (m_k) {
          launch_mark_flags(m_flags.get(), m_removals.get(), m_k, stream());
          ++m_launches;
        }
      } else {
        t.phase("flags");
        launch_flags(m_flags.get(), m_a.get(), m_n, stream());
        m_launches += m_n > 0;
      }
    } else {
      mark(t, m_a.get());
    }
    t.phase("select");
    std::uint32_t* out = m_in_place ? nullptr : m_out.get();
    if (m_flagged)
      cub_flagged(m_temp.get(), m_temp.bytes(), m_a.get(), m_flags.get(), out, m_n, m_count.get(), stream());
    else cub_if(m_temp.get(), m_temp.bytes(), m_a.get(), out, m_n, m_count.get(), stream());
    m_launches += 2; // an init kernel and the single-pass select
  }

protected:
  device_result output() override {
    const char* who = m_flagged ? "winnow::cuda::cub_flagged" : "winnow::cuda::cub_if";
    const std::size_t count = read_count();
    check_count(count, who);
    if (m_in_place) return {.who = who, .values = m_a.get(), .count = count};
    return {.who = who, .values = m_out.get(), .count = count, .input_after = m_a.get()};
  }

  void prepare_device(const param_set& p) override {
    m_in_place = p.choice<bool>("place", {{"out", false}, {"in", true}});
    m_a.resize(m_n);
    if (!m_in_place) m_out.resize(m_n);
    if (m_flagged) m_flags.resize(m_n);
    m_temp.resize(m_flagged ? cub_flagged_bytes(m_n, m_in_place) : cub_if_bytes(m_n, m_in_place));
  }
  void reset_device() override {
    m_a.copy_from(m_pristine, stream());
    if (m_flagged && m_w->removal_list) WINNOW_CUDA_CHECK(cudaMemsetAsync(m_flags.get(), 1, m_flags.bytes(), stream()));
  }
  traffic traffic_model() const override {
    const std::uint64_t n = m_n, v = m_w->kept(), k = m_k;
    traffic t{4 * n, 4 * v, 0}; // one pass: read every payload, write the kept
    if (m_flagged) {
      t.read += n; // the stencil
      if (m_w->removal_list) {
        t.read += 4 * k;
        t.written += k;
      } else {
        t.read += 4 * n;
        t.written += n;
      }
    } else {
      const traffic mark = mark_traffic();
      t.read += mark.read;
      t.written += mark.written;
    }
    return t;
  }

private:
  bool m_flagged, m_in_place = false;
  device_buffer<std::uint32_t> m_a, m_out;
  device_buffer<std::uint8_t> m_flags, m_temp;
};

/// thrust::copy_if / thrust::remove_if on an arena sized by one untimed call in prepare.
class thrust_select final : public cuda_algorithm {
public:
  explicit thrust_select(bool remove) : m_remove(remove) {}

  void run(timer& t) override {
    mark(t, m_a.get());
    t.phase("select");
    m_result = call();
    m_launches += 2;
  }

protected:
  device_result output() override {
    const char* who = m_remove ? "winnow::cuda::thrust_remove_if" : "winnow::cuda::thrust_copy_if";
    check_count(m_result, who);
    if (m_remove) return {.who = who, .values = m_a.get(), .count = m_result};
    return {.who = who, .values = m_out.get(), .count = m_result, .input_after = m_a.get()};
  }

  void prepare_device(const param_set&) override {
    m_a.resize(m_n);
    if (!m_remove) m_out.resize(m_n);
    // One untimed call with cudaMalloc behind thrust's requests measures what a run needs.
    m_a.copy_from(m_pristine, stream());
    size_arena(m_arena, m_arena_memory, [&] { (void)call(); });
  }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    return {mark.read + 4ull * m_n, mark.written + 4ull * m_w->kept(), 0};
  }

private:
  std::size_t call() {
    return m_remove ? thrust_remove_if(m_arena, m_a.get(), m_n, stream())
                    : thrust_copy_if(m_arena, m_a.get(), m_out.get(), m_n, stream());
  }

  bool m_remove;
  std::size_t m_result = 0;
  thrust_arena m_arena;
  device_buffer<std::uint32_t> m_a, m_out;
  device_buffer<char> m_arena_memory;
};

} // namespace

algorithm_entry cub_if_entry() {
  return {.info = {.api = "cuda",
                   .name = "cub_if",
                   .summary = "cub::DeviceSelect::If (payload != 0), single-pass decoupled look-back",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {place_axis()}},
          .make = [] { return std::make_unique<cub_select>(false); }};
}

algorithm_entry cub_flagged_entry() {
  return {
      .info = {.api = "cuda",
               .name = "cub_flagged",
               .summary = "cub::DeviceSelect::Flagged with a byte stencil (marked from R, or mapped from the payloads)",
               .stable = true,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {place_axis()}},
      .make = [] { return std::make_unique<cub_select>(true); }};
}

algorithm_entry thrust_copy_if_entry() {
  return {.info = {.api = "cuda",
                   .name = "thrust_copy_if",
                   .summary = "thrust::copy_if (payload != 0), out of place; thrust reads the count back",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {}},
          .make = [] { return std::make_unique<thrust_select>(false); }};
}

algorithm_entry thrust_remove_if_entry() {
  return {.info = {.api = "cuda",
                   .name = "thrust_remove_if",
                   .summary = "thrust::remove_if (payload == 0), in place; thrust reads the count back",
                   .stable = true,
                   .in_place = true,
                   .input = input_kind::predicate,
                   .axes = {}},
          .make = [] { return std::make_unique<thrust_select>(true); }};
}

} // namespace winnow::cuda
