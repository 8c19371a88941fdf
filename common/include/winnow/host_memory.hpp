#pragma once
/// Large host arrays that are quick to fill for the first time. A fresh array's pages cost the kernel
/// a fault each on first touch: a 2 GiB array is half a million 4 KiB pages, and zero-filling one took
/// about 1 s on the H200 machine's host, on every record at 512M (the case, its reference, the output
/// read back). Backed by 2 MiB transparent huge pages the same fill took 0.32 s (docs/design-notes.md,
/// "Cases are made a batch ahead, on all cores"). Linux backs only ranges it is asked to
/// (/sys/kernel/mm/transparent_hugepage/enabled says [madvise] there and on the CI machine), so
/// these helpers ask before the first touch. The elements are the same either way.
#include <cstddef>
#include <vector>

namespace winnow {

/// Asks the kernel to back [p, p + bytes) with transparent huge pages when it first touches them
/// (madvise(MADV_HUGEPAGE)). Only ranges of at least huge_page_advice_bytes are advised: smaller
/// ones may share their pages with the allocator's heap, whose mapping the advice would split. A
/// refusal, or a system without the call, leaves the range as it was: this is advice, never an error.
void advise_huge_pages(void* p, std::size_t bytes) noexcept;
inline constexpr std::size_t huge_page_advice_bytes = std::size_t{64} << 20;

/// v.resize(n), the new elements value-initialized (zero for the arithmetic types), with the storage
/// they land in advised first. Keeps v's elements.
template <class T> void resize_zeroed(std::vector<T>& v, std::size_t n) {
  if (n > v.capacity()) {
    v.reserve(n);
    advise_huge_pages(v.data() + v.size(), (n - v.size()) * sizeof(T));
  }
  v.resize(n);
}

/// v.assign(n, 0) for arithmetic T: n zeros, the storage advised first where it has to grow.
template <class T> void assign_zeroed(std::vector<T>& v, std::size_t n) {
  v.clear();
  resize_zeroed(v, n);
}

/// n value-initialized elements, their storage advised before it is touched.
template <class T> [[nodiscard]] std::vector<T> zeroed_vector(std::size_t n) {
  std::vector<T> v;
  resize_zeroed(v, n);
  return v;
}

} // namespace winnow
