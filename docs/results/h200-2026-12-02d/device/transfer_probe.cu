// How long moving 2 GiB between host memory and the device takes, by the ways winnow could do it.
// A probe for the host side of a bench record (its `prepare` uploads the case, its `result` reads the
// output back): none of this is timed inside a run. Build: nvcc -O2 -std=c++20 -o probe transfer_probe.cu
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

using clk = std::chrono::steady_clock;
static double ms(clk::time_point a) { return std::chrono::duration<double, std::milli>(clk::now() - a).count(); }

// Chunks through two pinned buffers: the DMA of chunk i+1 overlaps the host's copy of chunk i, which
// `threads` threads share.
static void staged_d2h(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, cudaStream_t s,
                       std::uint32_t* pin[2], std::size_t chunk, cudaEvent_t ev[2], unsigned threads) {
  auto host_copy = [&](std::uint32_t* d, const std::uint32_t* p, std::size_t c) {
    if (threads <= 1) { std::memcpy(d, p, c * 4); return; }
    std::vector<std::thread> ts;
    std::size_t per = (c + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
      std::size_t b = t * per, e = std::min(c, b + per);
      if (b < e) ts.emplace_back([=] { std::memcpy(d + b, p + b, (e - b) * 4); });
    }
    for (auto& t : ts) t.join();
  };
  std::size_t chunks = (n + chunk - 1) / chunk;
  for (std::size_t i = 0; i < chunks; ++i) {
    std::size_t b = i * chunk, c = std::min(chunk, n - b);
    CK(cudaMemcpyAsync(pin[i % 2], src + b, c * 4, cudaMemcpyDeviceToHost, s));
    CK(cudaEventRecord(ev[i % 2], s));
    if (i) {
      std::size_t pb = (i - 1) * chunk, pc = std::min(chunk, n - pb);
      CK(cudaEventSynchronize(ev[(i - 1) % 2]));
      host_copy(dst + pb, pin[(i - 1) % 2], pc);
    }
  }
  std::size_t pb = (chunks - 1) * chunk, pc = n - pb;
  CK(cudaEventSynchronize(ev[(chunks - 1) % 2]));
  host_copy(dst + pb, pin[(chunks - 1) % 2], pc);
}

int main() {
  const std::size_t n = std::size_t{512} << 20;  // 2 GiB of 32-bit elements, the papers' largest
  const unsigned hw = std::thread::hardware_concurrency();
  cudaStream_t s; CK(cudaStreamCreate(&s));
  std::uint32_t* d; CK(cudaMalloc(&d, n * 4));
  CK(cudaMemset(d, 7, n * 4));
  CK(cudaDeviceSynchronize());
  std::printf("n = %zu (2 GiB), %u host threads\n", n, hw);
  for (int rep = 0; rep < 2; ++rep) {
    std::printf("-- rep %d\n", rep);
    { auto t = clk::now(); std::vector<std::uint32_t> h(n); std::printf("vector(n) zero-filled: %.0f ms\n", ms(t));
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      std::printf("D2H pageable into it: %.0f ms\n", ms(t));
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      std::printf("D2H pageable again: %.0f ms\n", ms(t));
      t = clk::now(); CK(cudaMemcpyAsync(d, h.data(), n * 4, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s));
      std::printf("H2D pageable: %.0f ms\n", ms(t));
      t = clk::now(); CK(cudaHostRegister(h.data(), n * 4, cudaHostRegisterDefault)); double reg = ms(t);
      t = clk::now(); CK(cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s)); double dma = ms(t);
      t = clk::now(); CK(cudaMemcpyAsync(d, h.data(), n * 4, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s)); double up = ms(t);
      t = clk::now(); CK(cudaHostUnregister(h.data())); double unreg = ms(t);
      std::printf("cudaHostRegister %.0f ms, D2H %.0f ms, H2D %.0f ms, unregister %.0f ms\n", reg, dma, up, unreg);
      t = clk::now(); std::vector<std::uint32_t>().swap(h); std::printf("free: %.0f ms\n", ms(t)); }
    { auto t = clk::now(); std::unique_ptr<std::uint32_t[]> h(new std::uint32_t[n]); std::printf("new[] (untouched): %.0f ms\n", ms(t));
      t = clk::now(); CK(cudaMemcpyAsync(h.get(), d, n * 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
      std::printf("D2H pageable into untouched: %.0f ms\n", ms(t)); }
    for (std::size_t chunk_mib : {16, 64}) {
      const std::size_t chunk = chunk_mib << 18;
      std::uint32_t* pin[2]; cudaEvent_t ev[2];
      for (int i = 0; i < 2; ++i) { CK(cudaHostAlloc((void**)&pin[i], chunk * 4, cudaHostAllocDefault)); CK(cudaEventCreateWithFlags(&ev[i], cudaEventBlockingSync)); }
      for (unsigned th : {1u, 4u, hw}) {
        std::unique_ptr<std::uint32_t[]> h(new std::uint32_t[n]);
        auto t = clk::now(); staged_d2h(h.get(), d, n, s, pin, chunk, ev, th); double fresh = ms(t);
        t = clk::now(); staged_d2h(h.get(), d, n, s, pin, chunk, ev, th); double warm = ms(t);
        bool ok = h[0] == 0x07070707u && h[n - 1] == 0x07070707u;
        std::printf("staged D2H, %zu MiB chunks, %u threads: into untouched %.0f ms, again %.0f ms%s\n", chunk_mib, th, fresh, warm, ok ? "" : " WRONG");
      }
      for (int i = 0; i < 2; ++i) { CK(cudaFreeHost(pin[i])); CK(cudaEventDestroy(ev[i])); }
    }
  }
  std::printf("THP: "); std::fflush(stdout);
  std::system("cat /sys/kernel/mm/transparent_hugepage/enabled");
  return 0;
}
