#pragma once

namespace winnow::vk {
/// Keeps the device busy for about `ns` nanoseconds with copies of its own, and returns how long it
/// did (run_options::heat): what brings an NVIDIA GPU's clock up before a record of short runs.
[[nodiscard]] double heat(double ns);
} // namespace winnow::vk
