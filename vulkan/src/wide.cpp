#include "wide.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "case_input.hpp"
#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/vulkan/executor.hpp"
#include "winnow/vulkan/pipeline.hpp"

namespace winnow::vk {

std::uint32_t element_word(std::uint32_t x, std::uint32_t k) {
  switch (k) {
  case 0: return x;
  case 1: return x * 0x9E3779B1u;
  case 2: return x ^ 0xA5A5A5A5u;
  default: return ~x;
  }
}

std::vector<std::uint32_t> widen(const std::vector<std::uint32_t>& payloads, std::uint32_t words,
                                 std::uint64_t elements) {
  // On all cores, in storage advised for huge pages: the limit paper's 64- and 128-bit vk records
  // (2^27 elements) spent 10.6 of their 17 s on the H100 in prepare, widening on one core and
  // uploading 1-2 GiB each, where its 32-bit ones, copied on the device, spent 0.8 s.
  std::vector<std::uint32_t> out = zeroed_vector<std::uint32_t>(elements * words);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, payloads.size(), std::size_t{1} << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        for (std::uint32_t k = 0; k < words; ++k) out[i * words + k] = element_word(payloads[i], k);
                    });
  return out;
}

buffer stream_buffer(const std::string& name, const workload& w, std::uint32_t words, std::uint64_t elements,
                     device_copies* copies) {
  if (const case_input* in = words == 1 ? shared_input(copies, w.data, w.removals) : nullptr) {
    buffer b(name, 4 * elements);
    b.copy_prefix(in->data, 4 * w.size()); // the padding zero: invalid elements, as widen() pads
    return b;
  }
  const std::vector<std::uint32_t> host = widen(w.data, words, elements);
  buffer b(name, 4 * host.size());
  b.upload(host);
  return b;
}

buffer removals_buffer(const std::string& name, const workload& w, device_copies* copies) {
  buffer b(name, 4 * w.removals.size());
  if (const case_input* in = shared_input(copies, w.data, w.removals)) b.copy_prefix(in->removals, b.size());
  else b.upload(w.removals);
  return b;
}

std::vector<std::uint32_t> payloads_of(const std::vector<std::uint32_t>& wide, std::uint32_t words,
                                       const std::string& who) {
  std::vector<std::uint32_t> out(wide.size() / words);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = wide[i * words];
    for (std::uint32_t k = 1; k < words; ++k)
      if (wide[i * words + k] != element_word(out[i], k))
        throw error("winnow::vk: " + who + ": output element " + std::to_string(i) + " is torn: word " +
                    std::to_string(k) + " is " + std::to_string(wide[i * words + k]) + ", expected " +
                    std::to_string(element_word(out[i], k)));
  }
  return out;
}

std::vector<std::uint32_t> first_words(const std::vector<std::uint32_t>& wide, std::uint32_t words) {
  std::vector<std::uint32_t> out(wide.size() / words);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = wide[i * words];
  return out;
}

void record_mark(sequence& s, const buffer& removals, std::uint32_t k, const buffer& data, std::uint32_t words) {
  struct push {
    VkDeviceAddress removals, data;
    std::uint32_t count, words;
  };
  const pipeline& p = pipeline::get({"mark_wide", {default_local_size()}});
  s.dispatch(p, push{removals.address(), data.address(), k, words}, (k + p.local_size() - 1) / p.local_size());
}

} // namespace winnow::vk
