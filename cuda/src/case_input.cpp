#include "case_input.hpp"

#include <memory>
#include <string>
#include <vector>

#include "dispatch/check.hpp"
#include "dispatch/mark.hpp"
#include "dispatch/redzone.hpp"
#include "first_where.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

void check_removal_list(const workload& w) {
  const std::size_t n = w.size(), k = w.removals.size();
  if (const std::size_t i = first_where(k, [&](std::size_t j) { return w.removals[j] >= n; }); i < k)
    throw error("winnow::cuda: removal index " + std::to_string(w.removals[i]) + " ≥ n = " + std::to_string(n));
}

case_input::case_input(const workload& w, cudaStream_t stream) : data(w.size()), removals(w.removals.size()) {
  check_removal_list(w);
  if (payloads_are_indices(w))
    launch_index_payloads(data.get(), w.size(), stream); // nothing to copy: each payload is its index + 1
  else data.upload(w.data.data(), w.size(), stream);
  removals.upload(w.removals.data(), w.removals.size(), stream);
  if (!w.removals.empty()) removed_bits = removed_bitmap(removals.get(), removals.size(), w.size(), stream);
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(stream)); // the host arrays may go before the next record
}

device_buffer<unsigned> removed_bitmap(const std::uint32_t* d_removals, std::size_t k, std::size_t n,
                                       cudaStream_t stream) {
  device_buffer<unsigned> bits(n / 32 + 1);
  device_buffer<unsigned long long> repeats(1); // set_bits counts them; nothing here needs the count
  WINNOW_CUDA_CHECK(cudaMemsetAsync(bits.get(), 0, bits.bytes(), stream));
  WINNOW_CUDA_CHECK(cudaMemsetAsync(repeats.get(), 0, repeats.bytes(), stream));
  launch_set_bits(bits.get(), d_removals, k, repeats.get(), stream);
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(stream)); // repeats is freed on return
  return bits;
}

redzone_pairs count_redzone_pairs(const case_input& in, std::size_t n, cudaStream_t stream) {
  const std::size_t k = in.removals.size();
  if (k == 0 || k > n) return {}; // as the host's count: no list, or not a removal list
  device_buffer<unsigned long long> counts(4);
  WINNOW_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, counts.bytes(), stream));
  redzone_pairs_counts(in.removals.get(), k, n - k, in.removed_bits.get(), counts.get(), stream);
  const std::vector<unsigned long long> c = counts.download(4, stream);
  return {c[0], c[1], c[2], c[3]};
}

const case_input* shared_input(device_copies* copies, const workload& w, cudaStream_t stream) {
  if (!copies) return nullptr;
  // nullptr out of device memory too: the caller uploads, and the case's next record tries again.
  return copies->get_if_room<case_input>("cuda input", [&] { return std::make_unique<case_input>(w, stream); });
}

} // namespace winnow::cuda
