#pragma once
/// The shared corpus: a case is named by a spec string `family[:size][:key=value...]`, parsed here
/// and only here, and printed back canonically (defaults filled in, keys in a fixed order) in every
/// record. Same spec = same bytes on every machine: all randomness is MT19937 from the case's seed
/// with integer-only derivations (no std:: distributions, whose results differ between libraries).
///
///   uniform:4M:p=0.1     4 Mi elements, each valid with probability 0.1
///   removal:1M:k=0.02    1 Mi non-zero elements and a shuffled list of 2 % of the indices
///   removal:1M:k=0.02:g=0.01   the same, then 1 % of n gains appended (Redzone §4.6: add and remove)
///   file:scan.png:threshold=100
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/workload.hpp"

namespace winnow {

/// A parsed case spec. Keys hold the canonical text of every key the family accepts.
struct case_spec {
  std::string family;
  std::uint64_t n = 0; ///< elements (for file: the image's pixel count, known after loading)
  std::string path;    ///< file: only
  std::map<std::string, std::string> keys;
};

/// One key of a family: its default and what it means.
struct key_info {
  std::string name;
  std::string default_value; ///< canonical text; "" when it depends on n (see help)
  std::string help;
  /// Printed in the canonical spec only when it differs from the default: a key added after
  /// records existed, so that the specs those records carry stay canonical.
  bool shown_when_default = true;
};

/// One family of the corpus.
struct family_info {
  std::string name;
  std::string help;
  bool sized = true; ///< false for file: (the image decides n)
  std::vector<key_info> keys;
};

/// Every family, in the order `winnow list` and the README show them.
[[nodiscard]] const std::vector<family_info>& families();

/// Largest stream the corpus can describe: payloads are index + 1 in 32 bits.
inline constexpr std::uint64_t max_elements = 0xFFFF'FFFFull;

/// Default size when a spec gives none.
inline constexpr std::uint64_t default_elements = 256 * 1024;

/// Parses a spec. Throws usage_error naming the bad part and the accepted values.
[[nodiscard]] case_spec parse_spec(std::string_view spec);

/// The canonical text of a parsed spec: `parse_spec(to_string(s))` gives back `s`.
[[nodiscard]] std::string to_string(const case_spec& spec);

/// Parses a size like `1000`, `256K`, `4M`, `1G` (binary multiples). Throws usage_error.
[[nodiscard]] std::uint64_t parse_size(std::string_view text);
/// The shortest exact form of a size: 262144 → "256K", 1000 → "1000".
[[nodiscard]] std::string format_size(std::uint64_t n);

/// Generates the workload. Throws usage_error for a spec it cannot honour (unreadable file,
/// impossible r for the given k).
[[nodiscard]] workload generate(const case_spec& spec);
[[nodiscard]] inline workload generate(std::string_view spec) { return generate(parse_spec(spec)); }

/// The cases every algorithm is checked on (the conformance suite's, and anyone's own algorithm's):
/// edge cases, sizes that are no multiple of any block or tile, every family, the removal-list extremes.
[[nodiscard]] const std::vector<std::string>& conformance_cases();

/// A workload from the caller's own stream (payload 0 is dropped, any other value kept; values may
/// repeat), named `name` in records; its removal list (for the Redzone algorithms) is the indices of
/// the zeros, shuffled as the corpus shuffles them. Throws usage_error over max_elements.
[[nodiscard]] workload workload_from(std::vector<std::uint32_t> data, std::string name);

/// The gains a removal case appends after its n elements (key g): round(g·n); 0 for other families.
[[nodiscard]] std::uint64_t gains_of(const case_spec& spec);

/// The case's element count: its n (and its gains), or for a file: case the image's pixels (from
/// the file's header).
[[nodiscard]] std::uint64_t elements_of(const case_spec& spec);

/// Host bytes that generating and checking this case needs (stream, removal list, reference; a
/// file: case's decoding), so callers can refuse sizes that do not fit before allocating.
[[nodiscard]] std::uint64_t footprint_bytes(const case_spec& spec);

/// What can be checked before a case is made: a file: case's path names a regular file (a FIFO
/// would block the read forever, a directory is not an image) holding a PNG or PGM whose header's
/// size is within the corpus limit. usage_error naming the path and what is wrong.
void check_source(const case_spec& spec);

/// FNV-1a (64 bits) over the words' bytes, least significant first, from `h` (the offset basis, or
/// where an earlier call left it to go on): the corpus's checksum, and `winnow trace`'s per pass.
[[nodiscard]] std::uint64_t fnv1a(std::span<const std::uint32_t> words, std::uint64_t h = 0xcbf29ce484222325ull);

/// FNV-1a over the stream and the removal list: the tests pin one per family.
[[nodiscard]] std::uint64_t checksum(const workload& w);

} // namespace winnow
