#pragma once

namespace winnow::vk {
/// Keeps the device busy for at least `ns` nanoseconds of wall time with copies of its own, and returns
/// the device time they took by its timestamps (run_options::heat): what brings an NVIDIA GPU's clock
/// up before a record of short runs.
[[nodiscard]] double heat(double ns);
} // namespace winnow::vk
