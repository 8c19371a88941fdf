#include "case_input.hpp"

#include <memory>
#include <string>

#include "dispatch/mark.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

void check_removal_list(const workload& w) {
  const std::size_t n = w.size();
  for (const std::uint32_t r : w.removals)
    if (r >= n) throw error("winnow::cuda: removal index " + std::to_string(r) + " ≥ n = " + std::to_string(n));
}

case_input::case_input(const workload& w, cudaStream_t stream) : data(w.size()), removals(w.removals.size()) {
  check_removal_list(w);
  if (payloads_are_indices(w))
    launch_index_payloads(data.get(), w.size(), stream); // nothing to copy: each payload is its index + 1
  else data.upload(w.data.data(), w.size(), stream);
  removals.upload(w.removals.data(), w.removals.size(), stream);
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(stream)); // the host arrays may go before the next record
}

const case_input* shared_input(device_copies* copies, const workload& w, cudaStream_t stream) {
  if (!copies) return nullptr;
  // nullptr out of device memory too: the caller uploads, and the case's next record tries again.
  return copies->get_if_room<case_input>("cuda input", [&] { return std::make_unique<case_input>(w, stream); });
}

} // namespace winnow::cuda
