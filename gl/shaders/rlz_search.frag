#version 450 core
// RLZ forward search (M09 Alg. 1, ALGORITHMS.md §6d): output c < v iterates d ← pRL[c + d] from
// d = pRL[c] until it stops changing; it stops exactly at the displacement of c's source. Each
// iteration passes at least one invalid run: ≤ B/2 + 1 iterations (plain); the fast form takes two
// hops per iteration (M09's pRL[c+d] = pRL[c + pRL[c+d]]), halving the trips. u_cap is the bound.
layout(binding = 0) uniform usampler2D u_data;
layout(binding = 1) uniform usampler2D u_prl;
layout(location = 0) uniform int u_block;
layout(location = 1) uniform int u_fast;
layout(location = 2) uniform int u_cap;
layout(location = 0) out uint o_value;
#ifdef WINNOW_LOOP_CHECK
layout(location = 1) out uint o_trips;
#endif
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int base = p.x & ~(u_block - 1), c = p.x - base;
  int z = int(texelFetch(u_prl, ivec2(base + u_block - 1, p.y), 0).r);
  int trips = 0;
  if (c >= u_block - z) {
    o_value = 0u;
  } else {
    int d = int(texelFetch(u_prl, ivec2(base + c, p.y), 0).r);
    bool done = false;
    for (; trips < u_cap && !done; ++trips) {
      int e = int(texelFetch(u_prl, ivec2(base + c + d, p.y), 0).r);
      if (e == d) { done = true; break; }
      if (u_fast != 0) {
        int f = int(texelFetch(u_prl, ivec2(base + c + e, p.y), 0).r);
        if (f == e) { d = e; done = true; break; }
        e = f;
      }
      d = e;
    }
    if (!done) trips = u_cap + 1; // cut by the cap: never, by the proof
    else ++trips;
    o_value = texelFetch(u_data, ivec2(base + c + d, p.y), 0).r;
  }
#ifdef WINNOW_LOOP_CHECK
  o_trips = uint(trips);
#endif
}
