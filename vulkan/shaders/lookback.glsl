// vk/lookback — the single-pass stable compaction of cuda/lookback in Vulkan (docs/algorithms.md,
// "Single pass"): each workgroup takes the next tile (an atomic counter: tiles start in order), loads
// it with 16-byte loads, ranks its valid elements with subgroup scans, learns its output offset by
// decoupled look-back — publish the tile's count at once, sum the predecessors' published counts
// back to the nearest inclusive prefix, publish its own — and stores its survivors through shared
// memory as aligned 16-byte vectors. The tile states carry the run's epoch: nothing is cleared
// between runs.
// A tile's state is either one 64-bit word (WINNOW_PACKED_STATE: epoch, state and value together,
// so relaxed atomics suffice, as in cuda/lookback) or three 32-bit words (state, aggregate, prefix)
// whose value is ordered by the state word's release/acquire: in the Vulkan memory model
// (WINNOW_VULKAN_MEMORY_MODEL: queue-family scope, availability and visibility) or in the GLSL450
// model (device scope) where a driver mishandles the former (docs/driver-quirks.md).
// Forward progress assumed: a workgroup that has started keeps running while another spins on it
// (a workgroup only waits on tiles taken before its own). Vulkan does not promise it; NVIDIA, AMD and
// Intel GPUs and lavapipe (a workgroup runs to its end on one thread) provide it.
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : require
#ifdef WINNOW_PACKED_STATE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#endif
#ifdef WINNOW_PAUSE
#extension GL_ARB_shader_clock : require
#endif
#include "dispatch.glsl"
#ifdef WINNOW_VULKAN_MEMORY_MODEL
#define SCOPE gl_ScopeQueueFamily
#define RELEASE (gl_SemanticsRelease | gl_SemanticsMakeAvailable)
#define ACQUIRE (gl_SemanticsAcquire | gl_SemanticsMakeVisible)
#define SHARED_BARRIER (gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible)
#else
#define SCOPE gl_ScopeDevice
#define RELEASE gl_SemanticsRelease
#define ACQUIRE gl_SemanticsAcquire
#define SHARED_BARRIER gl_SemanticsAcquireRelease
#endif
layout(constant_id = 1) const uint WORDS = 1u; // 32-bit words per element: 1, 2, 4
layout(constant_id = 2) const uint ROWS = 4u;  // 16-byte vectors per invocation: even, 2 … 16
// 1: subgroup 0 alone looks back and hands the prefix on through shared memory; 0: every subgroup
// looks back (it only reads), so no subgroup-divergent code precedes a barrier (lavapipe's quirk).
layout(constant_id = 3) const uint ONE_LOOKER = 0u;
// How survivors reach the output. 0 (staged): the tile's survivors in order through shared memory,
// stored as aligned 16-byte vectors. 1 (direct): every invocation writes its survivors straight to
// their places (no staging area, which then limits the resident workgroups no more). 2 (rows): row
// by row, each subgroup stages its own share of the row — which lands in one contiguous range of
// the output — and stores it as aligned vectors: staging's whole-vector stores with an area of a row
// per subgroup (THREADS + a vector per subgroup), not a tile.
layout(constant_id = 4) const uint STORE = 0u;
#ifdef WINNOW_PAUSE
// How a look-back waits (cuda/lookback's pauses, counted in the subgroup's clock ticks): after
// publishing the aggregate, before the first read of the predecessors, and between reads of states
// not yet published, so that spinning subgroups leave the memory system to the publishers. The first
// pause is vk/lookback's `pause` (4000 by default: at 2^28 on the H100 1.04× faster than 2000 at 50 %
// valid, 1.02× at 10 %; 8000 slower).
layout(constant_id = 5) const uint FIRST_PAUSE = 4000u;
layout(constant_id = 6) const uint POLL_PAUSE = 200u;
void pause(uint ticks) {
  const uint start = clock2x32ARB().x;
  while (clock2x32ARB().x - start < ticks) {}
}
#endif
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ro_x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer rw_x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer rw_x2 { uvec2 v[]; };
#ifdef WINNOW_PACKED_STATE
layout(buffer_reference, std430, buffer_reference_align = 8) buffer rw_u64 { uint64_t v[]; };
#endif
layout(push_constant, std430) uniform lookback_args {
  ro_u32 data;    // the stream (elements of WORDS words)
  rw_u32 out_;    // the output (the stream itself in place)
  rw_u32 states;  // per tile: one 64-bit word (packed) or three 32-bit words: state, aggregate, prefix
  rw_u32 counter; // tiles taken, over all runs (wraps)
  rw_u32 count;   // the kept elements, written by the last tile
  uint n;         // elements
  uint epoch;     // 1 … 2^30 − 1
  uint base;      // the counter at this run's start
  uint tiles;
} args;

const uint THREADS = gl_WorkGroupSize.x, VEC = 4u / WORDS, TILE = THREADS * ROWS * VEC, PAIRS = ROWS / 2u;
const uint AGGREGATE = 1u, PREFIX = 2u;
shared uint sh_tile, sh_first;
// A workgroup barrier that orders (and in the Vulkan memory model makes available and visible) shared memory.
void workgroup_barrier() { controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, SHARED_BARRIER); }
shared uint sh_counts[PAIRS * (THREADS / 4u)]; // per row pair, per subgroup (subgroups of ≥ 4: host check)
// The survivors in order, shifted to output alignment: the tile's (staged), or each subgroup's share
// of a row in an area of its own (rows: subgroup size + 1 vectors each, subgroups of at least 4);
// one vector when stores are direct (the driver reserves a declared array even where no code uses
// it, and shared memory limits resident workgroups).
shared uvec4 sh_stage[STORE == 0u ? TILE / VEC + 1u : STORE == 2u ? THREADS + THREADS / 4u : 1u];

// Stages element j of `raw` (WORDS words) at word `at` of the staging area. Word by word (no inner
// loop over an element's words: lavapipe (Mesa 22.3) lost lanes after such a nest).
void stage(uint at, uvec4 raw, uint j) {
  const uint from = j * WORDS;
  sh_stage[at / 4u][at % 4u] = raw[from];
  if (WORDS > 1u) sh_stage[(at + 1u) / 4u][(at + 1u) % 4u] = raw[from + 1u];
  if (WORDS > 2u) {
    sh_stage[(at + 2u) / 4u][(at + 2u) % 4u] = raw[from + 2u];
    sh_stage[(at + 3u) / 4u][(at + 3u) % 4u] = raw[from + 3u];
  }
}

// Stores output elements [begin, end), staged from word `area` · 4 of the staging area on, element
// `origin` (begin rounded down to a whole vector) first: whole aligned vectors, then the words before
// the first and after the last one, `lane` of `lanes` invocations sharing the work.
void store_staged(uint begin, uint end, uint area, uint lane, uint lanes) {
  const uint origin = begin - begin % VEC;
  const uint q_first = (begin + VEC - 1u) / VEC, q_last = end / VEC, stage_origin = origin / VEC;
  for (uint q = q_first + lane; q < q_last; q += lanes) rw_x4(args.out_).v[q] = sh_stage[area + q - stage_origin];
  const uint head_end = min(q_first * VEC, end), tail_begin = max(q_last * VEC, head_end);
  for (uint g = begin * WORDS + lane; g < head_end * WORDS; g += lanes) {
    const uint s = area * 4u + g - origin * WORDS;
    args.out_.v[g] = sh_stage[s / 4u][s % 4u];
  }
  for (uint g = tail_begin * WORDS + lane; g < end * WORDS; g += lanes) {
    const uint s = area * 4u + g - origin * WORDS;
    args.out_.v[g] = sh_stage[s / 4u][s % 4u];
  }
}

uint payload_of(uvec4 raw, uint j) { return raw[j * WORDS]; }

// A tile's published state: which (0 none yet in this run, AGGREGATE or PREFIX) and its value.
#ifdef WINNOW_PACKED_STATE
#ifdef WINNOW_RELAXED_STATE
#define STATE_RELEASE 0, 0
#define STATE_ACQUIRE 0, 0
#else
#define STATE_RELEASE gl_StorageSemanticsBuffer, RELEASE
#define STATE_ACQUIRE gl_StorageSemanticsBuffer, ACQUIRE
#endif
void publish(uint tile, uint state, uint value) {
  const uint64_t word = (uint64_t(args.epoch) << 34) | (uint64_t(state) << 32) | uint64_t(value);
  atomicStore(rw_u64(args.states).v[tile], word, SCOPE, STATE_RELEASE);
}
uvec2 state_of(uint tile) {
  const uint64_t word = atomicLoad(rw_u64(args.states).v[tile], SCOPE, STATE_ACQUIRE);
  const uint high = uint(word >> 32);
  return (high >> 2) == args.epoch ? uvec2(high & 3u, uint(word)) : uvec2(0u);
}
#else
void publish(uint tile, uint state, uint value) {
  atomicStore(args.states.v[3u * tile + state], value, SCOPE, 0, 0);
  atomicStore(args.states.v[3u * tile], (args.epoch << 2) | state, SCOPE, gl_StorageSemanticsBuffer, RELEASE);
}
uvec2 state_of(uint tile) {
  const uint word = atomicLoad(args.states.v[3u * tile], SCOPE, gl_StorageSemanticsBuffer, ACQUIRE);
  if ((word >> 2) != args.epoch || (word & 3u) == 0u) return uvec2(0u);
  return uvec2(word & 3u, atomicLoad(args.states.v[3u * tile + (word & 3u)], SCOPE, 0, 0));
}
#endif

// The subgroup sums its predecessors' published values back to the nearest inclusive prefix, one
// predecessor per lane; its first invocation publishes the tile's aggregate before and its inclusive
// prefix after (publish = false: another subgroup of the workgroup does).
uint look_back(uint tile, uint aggregate, bool publisher) {
  if (tile == 0u) {
    if (publisher) publish(0u, PREFIX, aggregate);
    return 0u;
  }
  if (publisher) publish(tile, AGGREGATE, aggregate);
#ifdef WINNOW_PAUSE
  pause(FIRST_PAUSE);
#endif
  const uint S = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  uint exclusive = 0u;
  int end = int(tile); // this step looks at predecessors [end − S, end)
  // Loops end on subgroup-uniform conditions in their headers (no break past a subgroup operation):
  // lavapipe (Mesa 22.3) lost lanes' execution masks after such a break.
  bool found = false;
  while (!found) {
    const int pred = end - 1 - int(lane);
    uvec2 state = uvec2(pred < 0 ? PREFIX : 0u, 0u);
    bool all_ready = false;
    while (!all_ready) {
      if (state.x == 0u) state = state_of(uint(pred));
      all_ready = subgroupAll(state.x != 0u);
#ifdef WINNOW_PAUSE
      if (!all_ready) pause(POLL_PAUSE);
#endif
    }
    const uvec4 prefixes = subgroupBallot(state.x == PREFIX);
    found = subgroupAny(state.x == PREFIX);
    const uint nearest = found ? subgroupBallotFindLSB(prefixes) : S;
    exclusive += subgroupAdd(lane < nearest + 1u ? state.y : 0u);
    end -= int(S);
  }
  if (publisher) publish(tile, PREFIX, exclusive + aggregate);
  return exclusive;
}

void main() {
  const uint t = gl_LocalInvocationID.x;
  if (t == 0u) sh_tile = atomicAdd(args.counter.v[0], 1u) - args.base;
  workgroup_barrier();
  const uint tile = sh_tile, begin = tile * TILE; // n < 2^31 (host check): no overflow

  // 1. Load vector r·THREADS + t of the tile (16 bytes: VEC elements), every load coalesced. The
  //    whole-tile test stays outside the row loop, so that an invocation's loads issue together.
  uvec4 raw[ROWS];
  if (begin + TILE <= args.n) {
    [[unroll]] for (uint r = 0u; r < ROWS; ++r) raw[r] = ro_x4(args.data).v[begin / VEC + r * THREADS + t];
  } else {
    [[unroll]] for (uint r = 0u; r < ROWS; ++r) {
      const uint e0 = begin + (r * THREADS + t) * VEC;
      raw[r] = uvec4(0u);
      [[unroll]] for (uint w = 0u; w < 4u; ++w)
        if (e0 + w / WORDS < args.n) raw[r][w] = args.data.v[e0 * WORDS + w];
    }
  }
  uint ok[ROWS]; // bit j: element j of the vector is kept (elements past n read as payload 0)
  [[unroll]] for (uint r = 0u; r < ROWS; ++r) {
    ok[r] = 0u;
    [[unroll]] for (uint j = 0u; j < VEC; ++j) ok[r] |= uint(payload_of(raw[r], j) != 0u) << j;
  }

  // 2. Rank: the rows' counts packed two per word (a row keeps ≤ THREADS·VEC ≤ 4096 < 2^16).
  uint packed[PAIRS], incl[PAIRS];
  [[unroll]] for (uint p = 0u; p < PAIRS; ++p) {
    packed[p] = bitCount(ok[2u * p]) | bitCount(ok[2u * p + 1u]) << 16;
    incl[p] = subgroupInclusiveAdd(packed[p]);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sh_counts[p * gl_NumSubgroups + gl_SubgroupID] = incl[p];
  }
  workgroup_barrier();
  uint row_total[ROWS], row_before[ROWS], aggregate = 0u;
  [[unroll]] for (uint p = 0u; p < PAIRS; ++p) {
    uint before = 0u, total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      const uint a = sh_counts[p * gl_NumSubgroups + s];
      if (s < gl_SubgroupID) before += a;
      total += a;
    }
    const uint ex = before + incl[p] - packed[p];
    row_total[2u * p] = total & 0xFFFFu;
    row_total[2u * p + 1u] = total >> 16;
    row_before[2u * p] = ex & 0xFFFFu;
    row_before[2u * p + 1u] = ex >> 16;
    aggregate += row_total[2u * p] + row_total[2u * p + 1u];
  }

  // 3. Where the tile's survivors start.
  uint first;
  if (ONE_LOOKER != 0u) {
    if (gl_SubgroupID == 0u) {
      const uint exclusive = look_back(tile, aggregate, subgroupElect());
      if (subgroupElect()) sh_first = exclusive;
    }
    workgroup_barrier();
    first = sh_first;
  } else {
    first = look_back(tile, aggregate, gl_SubgroupID == 0u && subgroupElect());
  }
  const uint last = first + aggregate;

  if (STORE == 1u) {
    // 4'. Each survivor to its place in one store (4, 8 or 16 bytes, aligned): a subgroup's row lands
    //     in one contiguous range, so the stores of a row combine in the caches.
    uint row_start = 0u;
    [[unroll]] for (uint r = 0u; r < ROWS; ++r) {
      uint rank = first + row_start + row_before[r];
      [[unroll]] for (uint j = 0u; j < VEC; ++j)
        if ((ok[r] & (1u << j)) != 0u) {
          if (WORDS == 4u) rw_x4(args.out_).v[rank] = raw[r];
          else if (WORDS == 2u) rw_x2(args.out_).v[rank] = j == 0u ? raw[r].xy : raw[r].zw;
          else args.out_.v[rank] = raw[r][j];
          ++rank;
        }
      row_start += row_total[r];
    }
  } else if (STORE == 2u) {
    // 4''. Row by row, the subgroup's share of the row: staged in order in the subgroup's own area,
    //      shifted to output alignment, then stored as whole vectors. Only subgroup barriers: the
    //      subgroups of the workgroup never wait for each other.
    const uint area = gl_SubgroupID * (gl_SubgroupSize + 1u); // in vectors
    uint row_start = 0u;
    [[unroll]] for (uint r = 0u; r < ROWS; ++r) {
      const uint mine = bitCount(ok[r]), in_subgroup = subgroupExclusiveAdd(mine);
      // The row's survivors before this subgroup's first invocation, and the subgroup's own.
      const uint row_begin = first + row_start + row_before[r] - in_subgroup;
      const uint row_end = row_begin + subgroupAdd(mine);
      uint rank = row_begin % VEC + in_subgroup;
      [[unroll]] for (uint j = 0u; j < VEC; ++j)
        if ((ok[r] & (1u << j)) != 0u) {
          stage(area * 4u + rank * WORDS, raw[r], j);
          ++rank;
        }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      store_staged(row_begin, row_end, area, gl_SubgroupInvocationID, gl_SubgroupSize);
      subgroupMemoryBarrierShared(); // the next row is staged over this one
      subgroupBarrier();
      row_start += row_total[r];
    }
  } else {
    // 4. Stage in order, shifted by first mod VEC, so that output vector q is stage vector q − first / VEC.
    uint row_start = 0u;
    [[unroll]] for (uint r = 0u; r < ROWS; ++r) {
      uint rank = first % VEC + row_start + row_before[r];
      [[unroll]] for (uint j = 0u; j < VEC; ++j)
        if ((ok[r] & (1u << j)) != 0u) {
          stage(rank * WORDS, raw[r], j);
          ++rank;
        }
      row_start += row_total[r];
    }
    workgroup_barrier();

    // 5. Store: whole aligned vectors, then the elements before the first and after the last one.
    store_staged(first, last, 0u, t, THREADS);
  }
  if (tile == args.tiles - 1u && t == 0u) args.count.v[0] = last;
}
