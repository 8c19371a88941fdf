#pragma once
/// The argument block of every shader-era pass, one struct per shader. Each mirrors the fields its
/// shader declares with WINNOW_ARGS(...) in common/shaders/<shader>.glsl, in the same order, after
/// the io fields every pass has (io_args): 32-bit words only, so std140 (a GL uniform block) and
/// std430 (Vulkan push constants) lay them out alike.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace winnow::shader_era {

using u32 = std::uint32_t;

/// What the first read of a scan applies to each value (common/shaders/prologue.glsl: load_mapped).
enum class value_map : u32 {
  identity = 0,
  invalid_flag = 1, ///< 1 where the payload is 0
  valid_flag = 2,   ///< 1 where the payload is not 0
  run_start = 3,    ///< RLZ's filter: the run length where an invalid run starts in its segment, else 0
};

/// Shapes every pass addresses by: its output's log2 width and height, the words it writes, and each
/// input's log2 width (inputs are read by linear index on every API).
struct io_args {
  u32 out_log2w = 0, out_height = 1, extent = 0;
  u32 in_log2w[3] = {0, 0, 0};
};

struct scan_hillis_args {
  u32 offset, seg, map;
}; ///< out[i] = m(in[i]) + m(in[i − offset]) in-segment
struct scan_up_args {
  u32 seg, map;
}; ///< out[i] = m(in[2i]) + m(in[2i + 1])
struct scan_down_args {
  u32 top, inclusive, map, seg;
}; ///< Blelloch down-sweep, gather form
struct scan_gather_args {
  u32 width, rows;
}; ///< out[j] = in[j·width + width − 1]
struct scan_finish_args {
  u32 has_rows, row_log2w;
}; ///< inclusive − value + row offset
struct block_count_args {
  u32 mode, blocks, block;
}; ///< one count per block
struct search_args {
  u32 block, cap;
}; ///< Horn's and Jumping Jack's searches
struct horn_step_args {
  u32 block, step, first;
}; ///< one step of Horn's search per pass
struct horn_gather_args {
  u32 block;
}; ///< the gather after Horn's steps
struct rlz_search_args {
  u32 block, cap, fast;
}; ///< RLZ's forward search
/// Passes whose leading fields are the same in every pass of a run say how many (`constants`): Vulkan
/// compiles them into the pipeline as specialization constants first_constant_id, … — the ids the
/// shader's WINNOW_CONSTANT(2, …), WINNOW_CONSTANT(3, …) name — and GL passes them as arguments. Each
/// value is a pipeline of its own: only fields with few values (a block size, a level count).
inline constexpr u32 first_constant_id = 2; ///< after compute's local size (0) and loop check (1)
struct bt_traverse_args {
  u32 block, log2_block;
  static constexpr u32 constants = 2;
}; ///< Binary-Tree traversal
struct hp_reduce_args {
  u32 first, src_height;
}; ///< a HistoPyramid level: 2 × 2 counts summed
struct hp_traverse_args {
  u32 levels, stream_height;
  static constexpr u32 constants = 1;
}; ///< the HistoPyramid's descent
struct rl_double_args {
  u32 offset, block, map;
}; ///< RLZ run lengths by doubling
struct rl_up_args {
  u32 half_size, map;
}; ///< RLZ up-sweep
struct rl_down_args {
  u32 top, size, last, map;
}; ///< RLZ down-sweep
struct concat_args {
  u32 block, blocks, method;
}; ///< block concatenation (method: concat_method)
struct mark_args {
  u32 removals;
}; ///< the removal list's marks: |R|
struct sample_args {
  u32 n, stride, span;
}; ///< the adaptive algorithm's sample (sampling.hpp)
struct sample_sum_args {
  u32 windows, regions, level;
}; ///< the sample summed per region (two levels)
struct choose_args {
  u32 regions, candidates;
}; ///< the adaptive algorithm's choice on the device

/// Every shader's own argument words (after the io fields), for the executors' and the tests'
/// checks that the GLSL blocks and these structs agree.
struct arg_block {
  const char* shader;
  std::size_t words;
};
inline constexpr arg_block arg_blocks[] = {{"scan_hillis", sizeof(scan_hillis_args) / 4},
                                           {"scan_up", sizeof(scan_up_args) / 4},
                                           {"scan_down", sizeof(scan_down_args) / 4},
                                           {"scan_gather", sizeof(scan_gather_args) / 4},
                                           {"scan_finish", sizeof(scan_finish_args) / 4},
                                           {"block_count", sizeof(block_count_args) / 4},
                                           {"horn_search", sizeof(search_args) / 4},
                                           {"jj_search", sizeof(search_args) / 4},
                                           {"horn_step", sizeof(horn_step_args) / 4},
                                           {"horn_gather", sizeof(horn_gather_args) / 4},
                                           {"rlz_search", sizeof(rlz_search_args) / 4},
                                           {"bt_traverse", sizeof(bt_traverse_args) / 4},
                                           {"hp_reduce", sizeof(hp_reduce_args) / 4},
                                           {"hp_traverse", sizeof(hp_traverse_args) / 4},
                                           {"rl_double", sizeof(rl_double_args) / 4},
                                           {"rl_up", sizeof(rl_up_args) / 4},
                                           {"rl_down", sizeof(rl_down_args) / 4},
                                           {"concat", sizeof(concat_args) / 4},
                                           {"mark", sizeof(mark_args) / 4},
                                           {"sample", sizeof(sample_args) / 4},
                                           {"sample_sum", sizeof(sample_sum_args) / 4},
                                           {"choose", sizeof(choose_args) / 4}};
/// The io fields every block starts with.
inline constexpr std::size_t io_words = sizeof(io_args) / 4;

/// The words of an argument block.
template <class A> [[nodiscard]] std::vector<u32> words_of(const A& a) {
  static_assert(std::is_trivially_copyable_v<A> && (std::is_empty_v<A> || sizeof(A) % 4 == 0));
  if constexpr (std::is_empty_v<A>) {
    return {};
  } else {
    std::vector<u32> w(sizeof(A) / 4);
    std::memcpy(w.data(), &a, sizeof(A));
    return w;
  }
}

} // namespace winnow::shader_era
