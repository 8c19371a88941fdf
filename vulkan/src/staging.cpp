#include "staging.hpp"

#include <array>
#include <mutex>

#include "winnow/staged_copy.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

/// Two host-visible chunks, each with the sequence that last copied through it: a chunk is free
/// once its sequence has been waited for. Made on the first large copy, after the device, so
/// destroyed before it; one mutex, since the chunks are shared.
class staging {
public:
  static constexpr std::size_t chunk = std::size_t{32} << 20;

  static staging& get() {
    (void)device::get();
    static staging s;
    return s;
  }

  void upload(VkBuffer dst, VkDeviceSize offset, const char* src, std::size_t bytes) {
    const std::scoped_lock lock(m_mutex);
    const drained_on_exit guard{m_lanes};
    upload_in_chunks(bytes, chunk, [&](std::size_t at, std::size_t n, std::size_t i) {
      m_lanes[i].free();
      copy_on_all_cores(m_lanes[i].host.mapped(), src + at, n);
      m_lanes[i].copy(m_lanes[i].host.handle(), 0, dst, offset + at, n, false);
    });
    for (lane& l : m_lanes) l.free();
  }

  void download(char* dst, VkBuffer src, VkDeviceSize offset, std::size_t bytes) {
    const std::scoped_lock lock(m_mutex);
    const drained_on_exit guard{m_lanes};
    download_in_chunks(
        bytes, chunk,
        [&](std::size_t at, std::size_t n, std::size_t i) {
          m_lanes[i].copy(src, offset + at, m_lanes[i].host.handle(), 0, n, true);
        },
        [&](std::size_t at, std::size_t n, std::size_t i) {
          m_lanes[i].free();
          copy_on_all_cores(dst + at, m_lanes[i].host.mapped(), n);
        });
  }

  staging(const staging&) = delete;
  staging& operator=(const staging&) = delete;

private:
  staging() = default;

  // The sequence after the chunk: destroyed first, it waits for a copy an error left running.
  struct lane {
    buffer host{"staging chunk", chunk, true};
    sequence seq{"winnow::vk staging", 1};
    bool busy = false; ///< a copy was submitted and not yet waited for

    void free() {
      if (busy) seq.wait();
      busy = false;
    }
    /// Submits a copy of `n` bytes, once the chunk's last one is done; `to_host`: the host reads the
    /// chunk once the copy is waited for.
    void copy(VkBuffer from, VkDeviceSize from_offset, VkBuffer to, VkDeviceSize to_offset, std::size_t n,
              bool to_host) {
      free();
      seq.begin();
      const VkBufferCopy region{from_offset, to_offset, n};
      vkCmdCopyBuffer(seq.cmd(), from, to, 1, &region);
      if (to_host) seq.host_barrier();
      seq.submit();
      busy = true;
    }
  };
  /// Waits for both chunks' copies when a copy ends, an error's way too: no copy outlives the call
  /// whose buffer it reads or writes. An error here is dropped: the one that cut the copy short, or
  /// the normal path's own wait, has already said what went wrong.
  struct drained_on_exit {
    std::array<lane, 2>& lanes;
    ~drained_on_exit() {
      for (lane& l : lanes) try {
          l.free();
        } catch (...) { // NOLINT(bugprone-empty-catch): see above
        }
    }
  };
  std::mutex m_mutex;
  std::array<lane, 2> m_lanes;
};

} // namespace

void upload_bytes(VkBuffer dst, VkDeviceSize offset, const void* src, std::size_t bytes) {
  staging::get().upload(dst, offset, static_cast<const char*>(src), bytes);
  device::get().check("winnow::vk: a staged upload");
}

void download_bytes(void* dst, VkBuffer src, VkDeviceSize offset, std::size_t bytes) {
  staging::get().download(static_cast<char*>(dst), src, offset, bytes);
  device::get().check("winnow::vk: a staged download");
}

} // namespace winnow::vk
