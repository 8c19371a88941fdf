#version 450 core
// Horn's gather-search within a block (ALGORITHMS.md §4). P is the in-block inclusive scan of the
// invalid flags; output c < v_b = B − z_b takes x[c + d] for the smallest d with P[c+d] ≤ d.
// g(d) = P[c+d] − d is non-increasing, so binary lifting finds the last d with P[c+d] > d in
// ⌈log2(z_b + 1)⌉ ≤ log2 B steps; d + 1 is the answer (and a valid element).
layout(binding = 0) uniform usampler2D u_data;
layout(binding = 1) uniform usampler2D u_scan;
layout(location = 0) uniform int u_block;
layout(location = 1) uniform int u_log2_block; // the loop's cap
layout(location = 0) out uint o_value;
#ifdef WINNOW_LOOP_CHECK
layout(location = 1) out uint o_trips;
#endif
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int base = p.x & ~(u_block - 1), c = p.x - base;
  int z = int(texelFetch(u_scan, ivec2(base + u_block - 1, p.y), 0).r);
  int trips = 0;
  if (c >= u_block - z) {
    o_value = 0u;
  } else {
    int d = 0;
    if (texelFetch(u_scan, ivec2(base + c, p.y), 0).r != 0u) {
      int step = 1 << findMSB(z); // z ≥ 1 here
      for (; trips < u_log2_block && step > 0; ++trips, step >>= 1)
        if (d + step <= z && int(texelFetch(u_scan, ivec2(base + c + d + step, p.y), 0).r) > d + step) d += step;
      if (step > 0) trips = u_log2_block + 1; // cut by the cap: never, by the proof
      d += 1;
    }
    o_value = texelFetch(u_data, ivec2(base + c + d, p.y), 0).r;
  }
#ifdef WINNOW_LOOP_CHECK
  o_trips = uint(trips);
#endif
}
