#pragma once
/// How a removal case's pairs fall in Redzone (Bontes & Gain 2024): removal R[i] is paired with item
/// z + i of the red zone [z, n), z = n − k. Fixed by the data, so the Redzone algorithms' traffic
/// models count them exactly.
#include <cstdint>
#include <span>

#include "winnow/workload.hpp"

namespace winnow {

struct redzone_pairs {
  std::uint64_t zone = 0;         ///< R[i] inside the zone
  std::uint64_t hole_kept = 0;    ///< R[i] outside, item z + i kept: a hole filled straight from the zone
  std::uint64_t hole_removed = 0; ///< R[i] outside, item z + i removed too: the hole takes an orphan
  std::uint64_t zone_kept = 0;    ///< R[i] inside, item z + i kept: an orphan of the zone
};

/// The counts for w's removal list over its whole stream (n = w.size(), gains included), on all
/// cores: one core with a std::vector<bool> took 5.6 s at 512M elements and k = 50 % (on the 2-core CI
/// machine), in every Redzone record's prepare. At k = n every removal lies in the zone (zone = k);
/// the algorithms have nothing to move there and count no traffic.
[[nodiscard]] redzone_pairs count_redzone_pairs(const workload& w);
/// The same, reading w's removal mask (removed_mask.hpp) where the caller has it made already: O(k).
[[nodiscard]] redzone_pairs count_redzone_pairs(const workload& w, std::span<const std::uint8_t> removed);

} // namespace winnow
