#pragma once
// Tuning constants, apart from the algorithms (as CUB keeps its policies apart from its agents).
// Chosen for Hopper (H100/H200: 132 SMs, 2048 threads and 228 KiB shared memory per SM); every
// grid is sized from the device's SM count and occupancy at prepare time, never hard-coded.
namespace winnow::cuda::tuning {

/// Grid-stride kernels (mark, flags, widen, map, scatter): threads per block.
inline constexpr int stream_block = 256;

/// Redzone 2 (fill): threads per block and items per thread per tile; a block owns one batch of
/// R (Alg. 2) and walks it in tiles of redzone_block × redzone_items.
inline constexpr int redzone_block = 256;
inline constexpr int redzone_items = 4;
/// Orphans kept in shared memory per list (§6 "orphans in shared memory"); flushed in place to
/// the batch's slice of Z / R when full.
inline constexpr int redzone_shared_orphans = 2048;
/// Redzone 1 and the single-pass competitor: one block of 1024 threads (the paper's Fig. 5).
inline constexpr int single_block = 1024;
inline constexpr int single_items = 4;

/// Billeter et al.: threads per block (each warp is one virtual processor).
inline constexpr int billeter_block = 256;
/// `selective` output: a warp whose range holds at least this fraction of valid elements stages
/// its output in shared memory, sparser ranges scatter straight to global memory.
inline constexpr float billeter_selective_density = 0.25f;

} // namespace winnow::cuda::tuning
