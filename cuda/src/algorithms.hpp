#pragma once
// Registry entries of the cuda algorithms (info + factory), one per file.
#include "winnow/registry.hpp"

namespace winnow::cuda {

[[nodiscard]] algorithm_entry redzone1_entry();
[[nodiscard]] algorithm_entry redzone2_entry();
[[nodiscard]] algorithm_entry single_pass_entry();
[[nodiscard]] algorithm_entry billeter_entry();
[[nodiscard]] algorithm_entry billeter_scan_entry();
[[nodiscard]] algorithm_entry billeter_split_entry();
[[nodiscard]] algorithm_entry lookback_entry();
[[nodiscard]] algorithm_entry ink_entry();
[[nodiscard]] algorithm_entry scan_naive_entry();
[[nodiscard]] algorithm_entry scan_efficient_entry();
[[nodiscard]] algorithm_entry scan_thrust_entry();
[[nodiscard]] algorithm_entry ink_atomic_entry();
[[nodiscard]] algorithm_entry cub_if_entry();
[[nodiscard]] algorithm_entry cub_flagged_entry();
[[nodiscard]] algorithm_entry thrust_copy_if_entry();
[[nodiscard]] algorithm_entry thrust_remove_if_entry();
[[nodiscard]] algorithm_entry preserve_entry();

} // namespace winnow::cuda
