#pragma once
// A case's input on the device, shared by the case's cuda records (winnow::device_copies): the first
// record uploads the stream and its removal list from the host, and every record's prepare copies
// them device to device into its own pristine buffers. A 2^29-element case took 0.6 s a record to
// upload from pageable memory (the H200's Redzone campaign: 888 s of prepare), and its device copy
// takes about a millisecond. A stream whose payloads are all their indices + 1 (a removal case as
// generated: payloads_are_indices) is not uploaded at all but made in place. No algorithm ever gets
// these buffers: they are only the source of prepare's copies and the device check's pristine input,
// so a run that writes where it should not cannot change what the next record starts from or is
// checked against.
#include <cstdint>

#include "buffer.hpp"
#include "winnow/device_copies.hpp"
#include "winnow/redzone_pairs.hpp"
#include "winnow/workload.hpp"

namespace winnow::cuda {

struct case_input {
  case_input(const workload& w, cudaStream_t stream);
  device_buffer<std::uint32_t> data;     ///< the stream as generated
  device_buffer<std::uint32_t> removals; ///< R as generated
  /// Bit i set for each i in R (n / 32 + 1 words; empty without a list): what the Redzone traffic
  /// model's pair count and the device check's out-of-place test both read, made once a case.
  device_buffer<unsigned> removed_bits;
};

/// The bitmap of a removal list on the device: bit i set for each of the k indices at d_removals (each
/// below n: checked before), n / 32 + 1 words. Waits for it to be made.
[[nodiscard]] device_buffer<unsigned> removed_bitmap(const std::uint32_t* d_removals, std::size_t k, std::size_t n,
                                                     cudaStream_t stream);

/// count_redzone_pairs (redzone_pairs.hpp) of the case whose input this is (n elements), counted on
/// the device, where the host's count marks a byte per element, on every record where every record is
/// a case of its own (redzone-r's seeds: 512 MiB of marks a record at 512M).
[[nodiscard]] redzone_pairs count_redzone_pairs(const case_input& in, std::size_t n, cudaStream_t stream);

/// Throws winnow::error when a removal index of `w` lies past its stream (the check every prepare
/// needs, made once a case where the case's input is shared).
void check_removal_list(const workload& w);

/// The case's input on the device, made (uploaded, its removal list checked) on first use; nullptr without a case to
/// share it
/// (`copies` is nullptr) or when the device has no room for it beside the runs' buffers: the caller
/// then uploads from the host. A lost context is thrown.
[[nodiscard]] const case_input* shared_input(device_copies* copies, const workload& w, cudaStream_t stream);

} // namespace winnow::cuda
