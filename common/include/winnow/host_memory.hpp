#pragma once
/// Large host arrays that are quick to fill for the first time. A fresh array's pages cost the kernel
/// a fault each on first touch: a 2 GiB array is half a million 4 KiB pages, and zero-filling one took
/// about 1 s on the H200 machine's host, on every record at 512M (the case, its reference, the output
/// read back). Backed by 2 MiB transparent huge pages the same fill took 0.32 s (docs/design-notes.md,
/// "Cases are made a batch ahead, on all cores"). Linux backs only ranges it is asked to
/// (/sys/kernel/mm/transparent_hugepage/enabled says [madvise] there and on the CI machine), so
/// these helpers ask before the first touch. The elements are the same either way.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <typeinfo>
#include <vector>

namespace winnow {

/// Asks the kernel to back [p, p + bytes) with transparent huge pages when it first touches them
/// (madvise(MADV_HUGEPAGE)). Only ranges of at least huge_page_advice_bytes are advised: smaller
/// ones may share their pages with the allocator's heap, whose mapping the advice would split. A
/// refusal, or a system without the call, leaves the range as it was: this is advice, never an error.
void advise_huge_pages(void* p, std::size_t bytes) noexcept;
inline constexpr std::size_t huge_page_advice_bytes = std::size_t{64} << 20;

/// Bytes the kernel says this process can have now (MemAvailable, or less where a cgroup limits the
/// process); all ones where it does not say.
[[nodiscard]] std::uint64_t available_host_memory();

// Large arrays kept for reuse. Even in huge pages a fresh array costs the kernel a zero-fill of every
// page on first touch, and on a virtual machine its host may first have to back them: on the 2-core
// CI machine a fresh 2 GiB array took 0.3-4.9 s, against 0.1 s to zero one already mapped. A bench
// takes several such arrays a record (the algorithm's working copies, the output, the check's map)
// and several a case; freed, each went back to the kernel, and the cpu paper spent more time in
// them than in its timed runs. recycle() keeps an array's storage instead (of at least
// huge_page_advice_bytes), and the helpers below take a kept one of the same element type that is
// at least the size asked for and at most a quarter larger. The kept arrays take at most half the
// memory of the machine (or the container), and a request that none fits releases the oldest ones
// until the kernel has an eighth of that memory to spare beside it.
namespace detail {
struct spare {
  virtual ~spare() = default;
};
template <class T> struct spare_vector final : spare {
  explicit spare_vector(std::vector<T>&& x) noexcept : v(std::move(x)) {}
  std::vector<T> v;
};
/// Keeps s (an array of `bytes` bytes of elements of `type`), or frees it if it cannot be kept.
void keep_spare(std::unique_ptr<spare> s, const std::type_info& type, std::size_t bytes) noexcept;
/// The kept array of `type` with the fewest bytes in [bytes, bytes * 5 / 4], taken out; nullptr if
/// none, after make_room(bytes).
[[nodiscard]] std::unique_ptr<spare> take_spare(const std::type_info& type, std::size_t bytes) noexcept;
/// Before `bytes` of new storage: releases the oldest kept arrays until the kernel has an eighth of
/// the memory here to spare beside them.
void make_room(std::size_t bytes) noexcept;
} // namespace detail

/// Bytes of the arrays kept for reuse: memory the process holds but can hand to its next request,
/// as available as the kernel's (tools/winnow/memory.cpp counts it so).
[[nodiscard]] std::size_t spare_bytes() noexcept;
/// The most the kept arrays may take: half the memory of the machine or the container (0 where the
/// kernel does not say: nothing is kept).
[[nodiscard]] std::uint64_t spare_limit() noexcept;
/// Frees every kept array.
void release_spares() noexcept;

/// Empties v and keeps its storage for reuse when it is large (a smaller one is freed).
template <class T> void recycle(std::vector<T>& v) noexcept {
  v.clear();
  const std::size_t bytes = v.capacity() * sizeof(T);
  if (bytes >= huge_page_advice_bytes) {
    try {
      detail::keep_spare(std::make_unique<detail::spare_vector<T>>(std::move(v)), typeid(T), bytes);
    } catch (...) { // no memory for the note: the storage is freed below instead
    }
  }
  std::vector<T>().swap(v);
}

/// v.reserve(n): where v is empty and n elements are large, a kept array that fits; else new
/// storage, advised before it is touched (with room made for it first when it is large).
template <class T> void reserve_recycled(std::vector<T>& v, std::size_t n) {
  if (n <= v.capacity()) return;
  const std::size_t bytes = n * sizeof(T);
  if (bytes >= huge_page_advice_bytes) {
    if (!v.empty()) detail::make_room(bytes); // v's elements cannot move into a kept array
    else if (auto s = detail::take_spare(typeid(T), bytes)) {
      v.swap(static_cast<detail::spare_vector<T>&>(*s).v);
      return;
    }
  }
  // A large array gets a 64th more than asked: a kept one then fits the next request of nearly its
  // size (a check's map of n + 1 bytes after a mask of n).
  const std::size_t had = v.size(), want = bytes >= huge_page_advice_bytes ? n + n / 64 : n;
  v.reserve(want);
  advise_huge_pages(v.data() + had, (want - had) * sizeof(T));
}

/// v.resize(n), the new elements value-initialized (zero for the arithmetic types), in a kept array
/// or in storage advised first (reserve_recycled). Keeps v's elements.
template <class T> void resize_zeroed(std::vector<T>& v, std::size_t n) {
  reserve_recycled(v, n);
  v.resize(n);
}

/// v.assign(n, 0) for arithmetic T: n zeros, in a kept array or advised storage where it has to grow.
template <class T> void assign_zeroed(std::vector<T>& v, std::size_t n) {
  v.clear();
  if (n > v.capacity()) recycle(v); // its storage may fit a smaller request later
  resize_zeroed(v, n);
}

/// n value-initialized elements, in a kept array or storage advised before it is touched.
template <class T> [[nodiscard]] std::vector<T> zeroed_vector(std::size_t n) {
  std::vector<T> v;
  resize_zeroed(v, n);
  return v;
}

/// A function's large scratch array, zeroed, whose storage is kept for reuse when it goes out of scope.
template <class T> struct scratch_vector {
  explicit scratch_vector(std::size_t n) : v(zeroed_vector<T>(n)) {}
  scratch_vector(const scratch_vector&) = delete;
  scratch_vector& operator=(const scratch_vector&) = delete;
  ~scratch_vector() { recycle(v); }
  std::vector<T> v;
};

} // namespace winnow
