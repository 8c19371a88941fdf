#version 450 core
// Jumping Jack within a block (ALGORITHMS.md §5, our reconstruction, proved there): P is the in-block
// inclusive scan of invalid flags, v = B − z. A valid element already in [0, v) stays; a hole i < v
// follows MAS[p] = B − P[p] (a bijection of the invalid positions onto the tail [v, B)) until it lands
// on a valid element. Hops ≤ z ≤ B − 1; the loop is capped at B. Non-monotonic.
layout(binding = 0) uniform usampler2D u_data;
layout(binding = 1) uniform usampler2D u_scan;
layout(location = 0) uniform int u_block;
layout(location = 0) out uint o_value;
#ifdef WINNOW_LOOP_CHECK
layout(location = 1) out uint o_trips;
#endif
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int base = p.x & ~(u_block - 1), i = p.x - base;
  int z = int(texelFetch(u_scan, ivec2(base + u_block - 1, p.y), 0).r);
  int trips = 0;
  uint x = texelFetch(u_data, p, 0).r;
  if (i >= u_block - z) {
    x = 0u;
  } else if (x == 0u) {
    int at = i;
    for (; trips < u_block; ++trips) {
      at = u_block - int(texelFetch(u_scan, ivec2(base + at, p.y), 0).r);
      x = texelFetch(u_data, ivec2(base + at, p.y), 0).r;
      if (x != 0u) break;
    }
    if (x == 0u) trips = u_block + 1; // cut by the cap: never, by the proof
    else ++trips;
  }
  o_value = x;
#ifdef WINNOW_LOOP_CHECK
  o_trips = uint(trips);
#endif
}
