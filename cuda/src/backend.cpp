#include "winnow/cuda/backend.hpp"

#include "algorithms.hpp"
#include "calibrate.hpp"
#include "winnow/cuda/device.hpp"

namespace winnow::cuda {

void register_backend(registry& r) {
  backend b;
  b.api = "cuda";
  b.summary = "CUDA: Redzone (Alg. 1-3), Billeter et al., InK-style and scan compaction; CUB and thrust baselines";
  b.unavailable_reason = [] { return cuda::unavailable_reason(); };
  b.device = [] { return describe_device(); };
  b.calibrate = [] { return cuda::calibrate(); };
  b.algorithms = {redzone1_entry(),      redzone2_entry(),       single_pass_entry(),    billeter_entry(),
                  billeter_scan_entry(), billeter_split_entry(), lookback_entry(),       ink_entry(),
                  ink_atomic_entry(),    scan_naive_entry(),     scan_efficient_entry(), scan_thrust_entry(),
                  cub_if_entry(),        cub_flagged_entry(),    thrust_copy_if_entry(), thrust_remove_if_entry(),
                  preserve_entry()};
  r.add(std::move(b));
}

} // namespace winnow::cuda
