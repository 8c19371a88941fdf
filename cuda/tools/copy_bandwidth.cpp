// winnow_cuda_copy_bandwidth — the device-to-device copy roofline the targets are measured
// against: cudaMemcpyAsync of N 32-bit elements, timed with CUDA events, (read + written bytes) /
// time. Prints one JSON object. Usage: winnow_cuda_copy_bandwidth [elements] [reps]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../src/check.hpp"

int main(int argc, char** argv) {
  try {
    const std::size_t n = argc > 1 ? std::stoull(argv[1]) : (std::size_t{1} << 28);
    const int reps = argc > 2 ? std::stoi(argv[2]) : 20;
    const std::size_t bytes = n * 4;
    void *d_a = nullptr, *d_b = nullptr;
    WINNOW_CUDA_CHECK(cudaMalloc(&d_a, bytes));
    WINNOW_CUDA_CHECK(cudaMalloc(&d_b, bytes));
    WINNOW_CUDA_CHECK(cudaMemset(d_a, 1, bytes));
    cudaEvent_t start, stop;
    WINNOW_CUDA_CHECK(cudaEventCreate(&start));
    WINNOW_CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int r = -2; r < reps; ++r) { // two warm-up copies
      WINNOW_CUDA_CHECK(cudaEventRecord(start));
      WINNOW_CUDA_CHECK(cudaMemcpyAsync(d_b, d_a, bytes, cudaMemcpyDeviceToDevice));
      WINNOW_CUDA_CHECK(cudaEventRecord(stop));
      WINNOW_CUDA_CHECK(cudaEventSynchronize(stop));
      float t = 0;
      WINNOW_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
      if (r >= 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const double median_ms = ms[ms.size() / 2];
    cudaDeviceProp prop{};
    WINNOW_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("{\"device\": \"%s\", \"elements\": %zu, \"bytes_read\": %zu, \"bytes_written\": %zu, "
                "\"median_ns\": %.0f, \"min_ns\": %.0f, \"GBps\": %.1f}\n",
                prop.name, n, bytes, bytes, median_ms * 1e6, ms.front() * 1e6, 2.0 * static_cast<double>(bytes) / (median_ms * 1e6));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "winnow_cuda_copy_bandwidth: %s\n", e.what());
    return 1;
  }
}
