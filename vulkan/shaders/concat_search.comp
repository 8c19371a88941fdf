#version 460
// Concatenation without a rasterizer, search form: one invocation per output word t binary-searches
// the exclusive block offsets for the last block b with off[b] ≤ t, then takes word t − off[b] of
// block b's compacted run. Invocations past the survivors write nothing.
#include "compute.glsl"
#include "concat_args.glsl"
void main() {
  uint t = invocation_index();
  if (t >= args.extent) return;
  uint nb = args.blocks;
  if (t >= load0(nb - 1u) + load1(nb - 1u)) return;
  uint lo = 0u, hi = nb - 1u; // invariant: off[lo] ≤ t, and the answer is in [lo, hi]
  for (uint k = 0u; k < 32u && lo < hi; ++k) {
    uint mid = (lo + hi + 1u) >> 1;
    if (load0(mid) <= t) lo = mid;
    else hi = mid - 1u;
  }
  args.dst.v[t] = load2(lo * args.block + (t - load0(lo)));
}
