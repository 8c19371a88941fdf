// The probe after transfer_probe.cu: does advising a std::vector's storage onto transparent huge pages
// (madvise(MADV_HUGEPAGE) between reserve and resize) make its first fill faster, and does pinning it
// after (cudaHostRegister) pay for the read-back? Build: nvcc -O2 -std=c++20 -o probe2 huge_page_probe.cu
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a) { return std::chrono::duration<double, std::milli>(clk::now() - a).count(); }
static int advise(void* p, std::size_t bytes) {
  const std::uintptr_t page = 4096, b = (reinterpret_cast<std::uintptr_t>(p) + page - 1) & ~(page - 1);
  const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(page - 1);
  return e > b ? madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE) : 0;
}
int main() {
  const std::size_t n = std::size_t{512} << 20;
  cudaStream_t s; CK(cudaStreamCreate(&s));
  std::uint32_t* d; CK(cudaMalloc(&d, n * 4)); CK(cudaMemset(d, 7, n * 4)); CK(cudaDeviceSynchronize());
  for (int rep = 0; rep < 3; ++rep) {
    { auto t = clk::now(); std::vector<std::uint32_t> h(n); double a = ms(t);
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      std::printf("plain: vector(n) %.0f ms, D2H %.0f ms\n", a, ms(t)); }
    { auto t = clk::now(); std::vector<std::uint32_t> h; h.reserve(n); int r = advise(h.data(), n * 4); h.resize(n); double a = ms(t);
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s)); double b = ms(t);
      t = clk::now(); CK(cudaHostRegister(h.data(), n * 4, cudaHostRegisterDefault)); double c = ms(t);
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s)); double dd = ms(t);
      t = clk::now(); CK(cudaHostUnregister(h.data())); double e = ms(t);
      std::printf("hugepage (madvise %d): reserve+advise+resize %.0f ms, D2H pageable %.0f ms; register %.0f, D2H %.0f, unregister %.0f ms; h[n-1] %s\n",
                  r, a, b, c, dd, e, h[n - 1] == 0x07070707u ? "ok" : "WRONG"); }
    { auto t = clk::now(); std::vector<std::uint32_t> h(n); double a = ms(t);
      t = clk::now(); std::vector<std::uint32_t> g(h); double b = ms(t);
      std::printf("copy of a 2 GiB vector (fresh pages): %.0f ms (the zero-fill %.0f)\n", b, a); }
  }
  std::system("cat /sys/kernel/mm/transparent_hugepage/defrag; grep -i AnonHuge /proc/meminfo");
}
