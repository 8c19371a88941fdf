#pragma once
/// What the GPU backends' large copies share (cuda/src/staging.cpp, vulkan/src/staging.cpp): two
/// pinned chunks in turn, all cores filling or emptying one while the device empties or fills the
/// other. One core's memcpy (2.5-3.6 GB/s on the H200 machine's host) was the slower end of a copy.
#include <algorithm>
#include <cstddef>

namespace winnow {

/// Copies `bytes` from `from` to `to` (not overlapping) with the parallel algorithms' oneTBB backend.
void copy_on_all_cores(void* to, const void* from, std::size_t bytes);

/// An upload of `bytes` in chunks of `chunk` bytes through chunks 0 and 1 in turn: `send(at, n, i)`
/// waits until chunk i is free, fills it with bytes [at, at + n) and starts its copy to the device.
template <class Send> void upload_in_chunks(std::size_t bytes, std::size_t chunk, Send send) {
  for (std::size_t at = 0, i = 0; at < bytes; at += chunk, i ^= 1) send(at, std::min(chunk, bytes - at), i);
}

/// A download of `bytes` the same way: `fetch(at, n, i)` starts the device's copy of bytes [at, at + n)
/// into chunk i, and `take(at, n, i)` waits for it and copies the chunk out. Chunk k + 1 is fetched
/// before chunk k is taken, so the device fills one chunk while the cores empty the other.
template <class Fetch, class Take>
void download_in_chunks(std::size_t bytes, std::size_t chunk, Fetch fetch, Take take) {
  if (bytes == 0) return;
  fetch(0, std::min(chunk, bytes), 0);
  for (std::size_t at = 0, i = 0; at < bytes; at += chunk, i ^= 1) {
    if (at + chunk < bytes) fetch(at + chunk, std::min(chunk, bytes - at - chunk), i ^ 1);
    take(at, std::min(chunk, bytes - at), i);
  }
}

} // namespace winnow
