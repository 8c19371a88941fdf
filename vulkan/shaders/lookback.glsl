// vk/lookback — the single-pass stable compaction of cuda/lookback in Vulkan (docs/algorithms.md,
// "Single pass"): each workgroup takes the next tile (an atomic counter: tiles start in order), loads
// it with 16-byte loads, ranks its valid elements with subgroup scans, learns its output offset by
// decoupled look-back — publish the tile's count at once, sum the predecessors' published counts
// back to the nearest inclusive prefix, publish its own — and stores its survivors through shared
// memory as aligned 16-byte vectors. The tile states carry the run's epoch: nothing is cleared
// between runs. Published values are relaxed atomics ordered by the state word's release/acquire:
// in the Vulkan memory model (lookback_vmm.comp: queue-family scope, availability and visibility), or
// in the GLSL450 model (lookback.comp: device scope) where a driver mishandles the former
// (docs/driver-quirks.md).
// Forward progress assumed: a workgroup that has started keeps running while another spins on it
// (a workgroup only waits on tiles taken before its own). Vulkan does not promise it; NVIDIA, AMD and
// Intel GPUs and lavapipe (a workgroup runs to its end on one thread) provide it.
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
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
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ro_x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer rw_x4 { uvec4 v[]; };
layout(push_constant, std430) uniform lookback_args {
  ro_u32 data;   // the stream (elements of WORDS words)
  rw_u32 out_;   // the output (the stream itself in place)
  rw_u32 states; // per tile: state (epoch << 2 | 1 aggregate, 2 inclusive prefix), aggregate, prefix
  rw_u32 counter; // tiles taken, over all runs (wraps)
  rw_u32 count;  // the kept elements, written by the last tile
  uint n;        // elements
  uint epoch;    // 1 … 2^30 − 1
  uint base;     // the counter at this run's start
  uint tiles;
} args;

const uint THREADS = 256u, ROWS = 4u, VEC = 4u / WORDS, TILE = THREADS * ROWS * VEC;
shared uint sh_tile;
// A workgroup barrier that orders (and in the Vulkan memory model makes available and visible) shared memory.
void workgroup_barrier() { controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, SHARED_BARRIER); }
shared uint sh_lo[THREADS], sh_hi[THREADS]; // per subgroup (at most THREADS of them)
shared uint sh_stage[(TILE + VEC) * WORDS];

uint payload_of(uvec4 raw, uint j) { return raw[j * WORDS]; }

void publish(uint tile, uint state, uint value) {
  atomicStore(args.states.v[3u * tile + state], value, SCOPE, 0, 0);
  atomicStore(args.states.v[3u * tile], (args.epoch << 2) | state, SCOPE, gl_StorageSemanticsBuffer, RELEASE);
}

// Every subgroup sums its predecessors' published values back to the nearest inclusive prefix (reads
// only, so no broadcast and no subgroup-divergent code before a barrier); subgroup 0 publishes the
// tile's aggregate first and its inclusive prefix last.
uint look_back(uint tile, uint aggregate) {
  const bool publisher = gl_SubgroupID == 0u && subgroupElect();
  if (tile == 0u) {
    if (publisher) publish(0u, 2u, aggregate);
    return 0u;
  }
  if (publisher) publish(tile, 1u, aggregate);
  const uint S = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  uint exclusive = 0u;
  int end = int(tile); // this step looks at predecessors [end − S, end)
  // Loops end on subgroup-uniform conditions in their headers (no break past a subgroup operation):
  // lavapipe (Mesa 22.3) lost lanes' execution masks after such a break.
  bool found = false;
  while (!found) {
    const int pred = end - 1 - int(lane);
    uint state = 0u;
    bool ready = pred < 0, all_ready = false;
    while (!all_ready) {
      if (!ready) {
        state = atomicLoad(args.states.v[3u * uint(pred)], SCOPE, gl_StorageSemanticsBuffer, ACQUIRE);
        ready = (state >> 2) == args.epoch && (state & 3u) != 0u;
      }
      all_ready = subgroupAll(ready);
    }
    const bool prefix = pred < 0 || (state & 3u) == 2u;
    const uint value = pred < 0 ? 0u : atomicLoad(args.states.v[3u * uint(pred) + (state & 3u)], SCOPE, 0, 0);
    const uvec4 prefixes = subgroupBallot(prefix);
    found = subgroupAny(prefix);
    const uint nearest = found ? subgroupBallotFindLSB(prefixes) : S;
    exclusive += subgroupAdd(lane < nearest + 1u ? value : 0u);
    end -= int(S);
  }
  if (publisher) publish(tile, 2u, exclusive + aggregate);
  return exclusive;
}

void main() {
  const uint t = gl_LocalInvocationID.x;
  if (t == 0u) sh_tile = atomicAdd(args.counter.v[0], 1u) - args.base;
  workgroup_barrier();
  const uint tile = sh_tile, begin = tile * TILE; // n < 2^31 (host check): no overflow

  // 1. Load vector r·THREADS + t of the tile (16 bytes: VEC elements), every load coalesced.
  uvec4 raw[ROWS];
  bool ok[ROWS][4];
  const bool full = begin + TILE <= args.n;
  for (uint r = 0u; r < ROWS; ++r) {
    const uint e0 = begin + (r * THREADS + t) * VEC;
    if (full) {
      raw[r] = ro_x4(args.data).v[e0 / VEC];
    } else {
      raw[r] = uvec4(0u);
      for (uint w = 0u; w < 4u; ++w)
        if (e0 + w / WORDS < args.n) raw[r][w] = args.data.v[e0 * WORDS + w];
    }
    for (uint j = 0u; j < 4u; ++j) ok[r][j] = j < VEC && e0 + j < args.n && payload_of(raw[r], j) != 0u;
  }

  // 2. Rank: the rows' counts packed two per word (a row keeps ≤ THREADS·VEC = 1024 < 2^16).
  uint c[ROWS];
  for (uint r = 0u; r < ROWS; ++r) c[r] = uint(ok[r][0]) + uint(ok[r][1]) + uint(ok[r][2]) + uint(ok[r][3]);
  const uint lo = c[0] | c[1] << 16, hi = c[2] | c[3] << 16;
  const uint lo_incl = subgroupInclusiveAdd(lo), hi_incl = subgroupInclusiveAdd(hi);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
    sh_lo[gl_SubgroupID] = lo_incl;
    sh_hi[gl_SubgroupID] = hi_incl;
  }
  workgroup_barrier();
  uint before_lo = 0u, before_hi = 0u, total_lo = 0u, total_hi = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; ++s) {
    if (s < gl_SubgroupID) {
      before_lo += sh_lo[s];
      before_hi += sh_hi[s];
    }
    total_lo += sh_lo[s];
    total_hi += sh_hi[s];
  }
  const uint ex_lo = before_lo + lo_incl - lo, ex_hi = before_hi + hi_incl - hi;
  const uint row_total[ROWS] = uint[ROWS](total_lo & 0xFFFFu, total_lo >> 16, total_hi & 0xFFFFu, total_hi >> 16);
  const uint row_before[ROWS] = uint[ROWS](ex_lo & 0xFFFFu, ex_lo >> 16, ex_hi & 0xFFFFu, ex_hi >> 16);
  const uint aggregate = row_total[0] + row_total[1] + row_total[2] + row_total[3];

  // 3. Where the tile's survivors start.
  const uint first = look_back(tile, aggregate), last = first + aggregate;

  // 4. Stage in order, shifted by first mod VEC, so output vector q starts at word 4q − origin·WORDS.
  const uint shift = first % VEC, origin = first - shift;
  uint row_start = 0u;
  for (uint r = 0u; r < ROWS; ++r) {
    uint rank = shift + row_start + row_before[r];
    for (uint j = 0u; j < VEC; ++j)
      if (ok[r][j]) {
        const uint at = rank * WORDS, from = j * WORDS;
        sh_stage[at] = raw[r][from];
        if (WORDS > 1u) sh_stage[at + 1u] = raw[r][from + 1u];
        if (WORDS > 2u) {
          sh_stage[at + 2u] = raw[r][from + 2u];
          sh_stage[at + 3u] = raw[r][from + 3u];
        }
        ++rank;
      }
    row_start += row_total[r];
  }
  workgroup_barrier();

  // 5. Store: whole aligned vectors, then the elements before the first and after the last one.
  const uint q_first = (first + VEC - 1u) / VEC, q_last = last / VEC;
  for (uint q = q_first + t; q < q_last; q += THREADS) {
    const uint s = 4u * q - origin * WORDS;
    rw_x4(args.out_).v[q] = uvec4(sh_stage[s], sh_stage[s + 1u], sh_stage[s + 2u], sh_stage[s + 3u]);
  }
  const uint head_end = min(q_first * VEC, last), tail_begin = max(q_last * VEC, head_end);
  // Word by word (one loop, no inner loop over an element's words: lavapipe (Mesa 22.3) lost lanes
  // after such a nest).
  for (uint g = first * WORDS + t; g < head_end * WORDS; g += THREADS) args.out_.v[g] = sh_stage[g - origin * WORDS];
  for (uint g = tail_begin * WORDS + t; g < last * WORDS; g += THREADS) args.out_.v[g] = sh_stage[g - origin * WORDS];
  if (tile == args.tiles - 1u && t == 0u) args.count.v[0] = last;
}
