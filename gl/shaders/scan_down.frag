#version 450 core
// Blelloch down-sweep, gather form (ALGORITHMS.md §3): D_{p-1}[j] = D_p[j>>1] + (j odd ? U_{p-1}[j-1] : 0),
// with D_L = 0 at every segment's root (u_top). The last pass adds U_0[j] (u_inclusive) so the
// result is the inclusive scan.
layout(binding = 0) uniform usampler2D u_parent;  // D_p
layout(binding = 1) uniform usampler2D u_sibling; // U_{p-1} (the data, mapped, when p-1 = 0)
layout(location = 0) uniform int u_top;
layout(location = 1) uniform int u_inclusive;
layout(location = 2) uniform int u_map;
layout(location = 0) out uint o_value;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint r = u_top != 0 ? 0u : texelFetch(u_parent, ivec2(p.x >> 1, p.y), 0).r;
  if ((p.x & 1) != 0) r += apply_map(texelFetch(u_sibling, p - ivec2(1, 0), 0).r, u_map);
  if (u_inclusive != 0) r += apply_map(texelFetch(u_sibling, p, 0).r, u_map);
  o_value = r;
}
