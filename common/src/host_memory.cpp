#include "winnow/host_memory.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <typeindex>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "winnow/settings.hpp"

namespace winnow {

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(MADV_HUGEPAGE)
  if (bytes < huge_page_advice_bytes) return;
  // madvise takes whole pages: the pages wholly inside the range.
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

namespace {

/// A number from a one-line file such as /sys/fs/cgroup/memory.max; nullopt for "max" or no file.
std::optional<std::uint64_t> read_number(const char* path) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

/// A /proc/meminfo line's value [bytes], nullopt where there is none.
std::optional<std::uint64_t> meminfo(const std::string& wanted) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (in >> key >> kib) {
    if (key == wanted) return kib * 1024;
    in.ignore(64, '\n');
  }
  return std::nullopt;
}

/// The memory a process here may have at most: the machine's, or its container's limit.
std::optional<std::uint64_t> total_memory() {
  auto total = meminfo("MemTotal:");
  if (const auto limit = read_number("/sys/fs/cgroup/memory.max")) total = std::min(total.value_or(*limit), *limit);
  return total;
}

struct kept {
  std::unique_ptr<detail::spare> s;
  std::type_index type;
  std::size_t bytes;
  std::uint64_t since; ///< the requests before it was kept (so, oldest first, never decreasing)
};

/// An array no request takes among the next ones is released: it fits none of what the bench asks
/// for now (a size of an earlier case), and held it only keeps memory from the machine. A 512M
/// case of the cpu suite asks for about 20 large arrays, its make and five records together.
constexpr std::uint64_t stale_after = 16;

/// The kept arrays, oldest first. A mutex: a bench makes its cases on other threads while its
/// records run.
struct spares {
  std::mutex lock;
  std::vector<kept> arrays;
  std::size_t bytes = 0;
  std::uint64_t requests = 0; ///< for large arrays, so far
  /// Releases the oldest arrays while `release(next)` says so, into `out`, freed by the caller after
  /// the lock (giving 2 GiB back to the kernel takes a while), or here where `out` has no room.
  template <class Test> void release_while(const Test& release, std::vector<kept>& out) noexcept {
    std::size_t n = 0;
    while (n < arrays.size() && release(arrays[n])) bytes -= arrays[n++].bytes;
    const auto end = arrays.begin() + static_cast<std::ptrdiff_t>(n);
    try {
      out.insert(out.end(), std::make_move_iterator(arrays.begin()), std::make_move_iterator(end));
    } catch (...) { // out unchanged: the erase below frees them
    }
    arrays.erase(arrays.begin(), end);
  }
};

spares& kept_arrays() {
  static spares s; // destroyed at exit, with the arrays it keeps
  return s;
}

/// total_memory(), read once: the kept arrays' limit and the room a new array needs are parts of it.
const std::optional<std::uint64_t>& memory_here() {
  static const std::optional<std::uint64_t> total = total_memory();
  return total;
}

} // namespace

std::uint64_t available_host_memory() {
  std::uint64_t have = meminfo("MemAvailable:").value_or(~std::uint64_t{0}); // unknown: do not refuse
  // In a container the cgroup's limit is what the OOM killer enforces, not the machine's memory.
  if (const auto limit = read_number("/sys/fs/cgroup/memory.max")) {
    const std::uint64_t used = read_number("/sys/fs/cgroup/memory.current").value_or(0);
    have = std::min(have, *limit > used ? *limit - used : 0);
  }
  return have;
}

namespace {

/// Before `bytes` of new storage: the oldest kept arrays released until the kernel has an eighth of
/// the memory here to spare beside it.
void make_room(spares& k, std::size_t bytes, std::vector<kept>& released) noexcept {
  try {
    const std::uint64_t reserve = memory_here().value_or(0) / 8;
    std::uint64_t have = available_host_memory();
    k.release_while(
        [&](const kept& next) {
          if (have >= bytes + reserve) return false;
          have += next.bytes; // as the kernel will see it once this one is freed
          return true;
        },
        released);
  } catch (...) { // cannot tell: release them all
    k.release_while([](const kept&) { return true; }, released);
  }
}

} // namespace

namespace detail {

void keep_spare(std::unique_ptr<spare> s, const std::type_info& type, std::size_t bytes) noexcept {
  const std::uint64_t limit = spare_limit();
  if (bytes > limit) return; // s frees the array as it goes
  spares& k = kept_arrays();
  std::vector<kept> released;
  try {
    const std::lock_guard guard(k.lock);
    k.arrays.push_back({std::move(s), std::type_index(type), bytes, k.requests});
    k.bytes += bytes;
    k.release_while([&](const kept&) { return k.bytes > limit; }, released);
  } catch (...) { // no room to note it: s frees the array as it goes
  }
}

std::unique_ptr<spare> take_spare(const std::type_info& type, std::size_t bytes) noexcept {
  spares& k = kept_arrays();
  std::vector<kept> released;
  const std::lock_guard guard(k.lock);
  ++k.requests;
  k.release_while([&](const kept& a) { return k.requests - a.since > stale_after; }, released);
  std::size_t best = k.arrays.size();
  for (std::size_t i = 0; i < k.arrays.size(); ++i) {
    const kept& a = k.arrays[i];
    if (a.type == type && a.bytes >= bytes && a.bytes - bytes <= bytes / 4 &&
        (best == k.arrays.size() || a.bytes < k.arrays[best].bytes))
      best = i;
  }
  if (best < k.arrays.size()) {
    std::unique_ptr<spare> s = std::move(k.arrays[best].s);
    k.bytes -= k.arrays[best].bytes;
    k.arrays.erase(k.arrays.begin() + static_cast<std::ptrdiff_t>(best));
    return s;
  }
  make_room(k, bytes, released);
  return nullptr;
}

void make_room(std::size_t bytes) noexcept {
  spares& k = kept_arrays();
  std::vector<kept> released;
  const std::lock_guard guard(k.lock);
  make_room(k, bytes, released);
}

} // namespace detail

std::uint64_t spare_limit() noexcept {
  // WINNOW_KEEP_ARRAYS=0 keeps none: the same build measured both ways.
  static const bool keep = env_flag("WINNOW_KEEP_ARRAYS").value_or(true);
  return keep ? memory_here().value_or(0) / 2 : 0;
}

std::size_t spare_bytes() noexcept {
  spares& k = kept_arrays();
  const std::lock_guard guard(k.lock);
  return k.bytes;
}

void release_spares() noexcept {
  spares& k = kept_arrays();
  std::vector<kept> released;
  const std::lock_guard guard(k.lock);
  k.release_while([](const kept&) { return true; }, released);
}

} // namespace winnow
