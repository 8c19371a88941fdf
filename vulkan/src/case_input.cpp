#include "case_input.hpp"

#include <memory>

#include "winnow/error.hpp"

namespace winnow::vk {

case_input::case_input(std::span<const std::uint32_t> stream, std::span<const std::uint32_t> r)
    : data("case input: stream", stream.size_bytes()), removals("case input: removal list", r.size_bytes()) {
  data.upload(stream);
  removals.upload(r);
}

const case_input* shared_input(device_copies* copies, std::span<const std::uint32_t> stream,
                               std::span<const std::uint32_t> removals) {
  if (!copies) return nullptr;
  // nullptr out of device memory too: the caller uploads, and the case's next record tries again.
  return copies->get_if_room<case_input>("vk input", [&] { return std::make_unique<case_input>(stream, removals); });
}

} // namespace winnow::vk
