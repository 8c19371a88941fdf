#pragma once
// An owning device allocation (cudaMalloc/cudaFree). Allocated in prepare, never inside a run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "staging.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cuda {

/// `count` elements from `d_src` into host memory. Synchronous: for result(), never inside a run.
template <class T> [[nodiscard]] std::vector<T> download(const T* d_src, std::size_t count, cudaStream_t stream) {
  std::vector<T> h = zeroed_vector<T>(count); // its pages advised first: see host_memory.hpp
  download_bytes(h.data(), d_src, count * sizeof(T), stream);
  return h;
}

template <class T> class device_buffer {
public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) { resize(count); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(std::exchange(o.m_count, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      release();
      m_ptr = std::exchange(o.m_ptr, nullptr);
      m_count = std::exchange(o.m_count, 0);
    }
    return *this;
  }
  ~device_buffer() { release(); }

  /// Discards the contents. At least one element is allocated, so an empty stream still has a
  /// valid pointer to hand to kernels and libraries.
  void resize(std::size_t count) {
    release();
    void* p = nullptr;
    const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
    if (const cudaError_t e = cudaMalloc(&p, bytes); e == cudaErrorMemoryAllocation) {
      // Not a fault but a size over this device's room, as Vulkan's buffer says it: the harness skips
      // the record with the reason, and device_copies::get_if_room falls back to the host. The error
      // must not be reported by the next launch's check.
      (void)cudaGetLastError();
      throw unavailable("winnow::cuda::device_buffer: out of device memory: asked for " + std::to_string(bytes) +
                        " bytes");
    } else {
      check(e, "cudaMalloc");
    }
    m_ptr = static_cast<T*>(p);
    m_count = count;
  }
  /// In stream order; `h_src` may go as soon as this returns (staging.hpp).
  void upload(const T* h_src, std::size_t count, cudaStream_t stream) {
    upload_bytes(m_ptr, h_src, count * sizeof(T), stream);
  }
  void copy_from(const device_buffer& d_src, cudaStream_t stream) {
    if (m_count)
      WINNOW_CUDA_CHECK(cudaMemcpyAsync(m_ptr, d_src.m_ptr, m_count * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
  /// Synchronous: for result(), never inside a run.
  [[nodiscard]] std::vector<T> download(std::size_t count, cudaStream_t stream, std::size_t offset = 0) const {
    return cuda::download(m_ptr + offset, count, stream);
  }
  [[nodiscard]] T* get() const { return m_ptr; }
  [[nodiscard]] std::size_t size() const { return m_count; }
  [[nodiscard]] std::size_t bytes() const { return m_count * sizeof(T); }

private:
  void release() noexcept {
    if (m_ptr) check_noexcept(cudaFree(m_ptr), "cudaFree");
    m_ptr = nullptr;
    m_count = 0;
  }
  T* m_ptr = nullptr;
  std::size_t m_count = 0;
};

} // namespace winnow::cuda
