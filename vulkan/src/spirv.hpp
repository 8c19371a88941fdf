#pragma once
// The SPIR-V modules compiled from vulkan/shaders/*.comp at build time, by shader name.
#include <cstdint>
#include <span>
#include <string_view>

namespace winnow::vk {

/// The module compiled from shaders/<name>.comp; empty when there is none.
[[nodiscard]] std::span<const std::uint32_t> spirv(std::string_view name);

} // namespace winnow::vk
