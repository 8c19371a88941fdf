#include "staging.hpp"

#include <array>
#include <mutex>

#include "check.hpp"
#include "winnow/staged_copy.hpp"

namespace winnow::cuda {
namespace {

/// Two pinned chunks and, for each, an event recorded after the last copy that used it. Made on the
/// first large copy; one mutex, since a chunk is busy until its event has passed.
class staging {
public:
  static constexpr std::size_t chunk = std::size_t{32} << 20;

  static staging& get() {
    static staging s;
    return s;
  }

  void upload(char* d_dst, const char* h_src, std::size_t bytes, cudaStream_t stream) {
    const std::scoped_lock lock(m_mutex);
    upload_in_chunks(bytes, chunk, [&](std::size_t at, std::size_t n, std::size_t i) {
      WINNOW_CUDA_CHECK(cudaEventSynchronize(m_done[i])); // the copy engine has emptied chunk i
      copy_on_all_cores(m_chunk[i], h_src + at, n);
      WINNOW_CUDA_CHECK(cudaMemcpyAsync(d_dst + at, m_chunk[i], n, cudaMemcpyHostToDevice, stream));
      WINNOW_CUDA_CHECK(cudaEventRecord(m_done[i], stream));
    });
  }

  void download(char* h_dst, const char* d_src, std::size_t bytes, cudaStream_t stream) {
    const std::scoped_lock lock(m_mutex);
    download_in_chunks(
        bytes, chunk,
        [&](std::size_t at, std::size_t n, std::size_t i) {
          WINNOW_CUDA_CHECK(cudaMemcpyAsync(m_chunk[i], d_src + at, n, cudaMemcpyDeviceToHost, stream));
          WINNOW_CUDA_CHECK(cudaEventRecord(m_done[i], stream));
        },
        [&](std::size_t at, std::size_t n, std::size_t i) {
          WINNOW_CUDA_CHECK(cudaEventSynchronize(m_done[i]));
          copy_on_all_cores(h_dst + at, m_chunk[i], n);
        });
  }

  staging(const staging&) = delete;
  staging& operator=(const staging&) = delete;

private:
  staging() {
    for (std::size_t i = 0; i < 2; ++i) {
      WINNOW_CUDA_CHECK(cudaMallocHost(&m_chunk[i], chunk));
      WINNOW_CUDA_CHECK(cudaEventCreateWithFlags(&m_done[i], cudaEventDisableTiming));
      WINNOW_CUDA_CHECK(cudaEventRecord(m_done[i], nullptr)); // a chunk starts free
    }
  }
  ~staging() {
    for (std::size_t i = 0; i < 2; ++i) {
      check_noexcept(cudaEventSynchronize(m_done[i]), "cudaEventSynchronize");
      check_noexcept(cudaEventDestroy(m_done[i]), "cudaEventDestroy");
      check_noexcept(cudaFreeHost(m_chunk[i]), "cudaFreeHost");
    }
  }
  std::mutex m_mutex;
  std::array<void*, 2> m_chunk{};
  std::array<cudaEvent_t, 2> m_done{};
};

} // namespace

void upload_bytes(void* d_dst, const void* h_src, std::size_t bytes, cudaStream_t stream) {
  if (bytes < staged_copy_bytes) {
    if (bytes) WINNOW_CUDA_CHECK(cudaMemcpyAsync(d_dst, h_src, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  staging::get().upload(static_cast<char*>(d_dst), static_cast<const char*>(h_src), bytes, stream);
}

void download_bytes(void* h_dst, const void* d_src, std::size_t bytes, cudaStream_t stream) {
  if (bytes < staged_copy_bytes) {
    if (bytes) WINNOW_CUDA_CHECK(cudaMemcpyAsync(h_dst, d_src, bytes, cudaMemcpyDeviceToHost, stream));
    WINNOW_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  staging::get().download(static_cast<char*>(h_dst), static_cast<const char*>(d_src), bytes, stream);
}

} // namespace winnow::cuda
