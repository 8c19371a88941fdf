// A gather pass as a compute dispatch, four output words per invocation (common/shaders/README.md):
// invocation k computes words 4k … 4k + 3 and stores them as one 16-byte vector (the executor uses
// this main only where the output is 16-byte aligned), the last words of the output one by one.
layout(buffer_reference, std430, buffer_reference_align = 16) buffer rw_x4 { uvec4 v[]; };
void main() {
  uint i = 4u * invocation_index();
  if (i >= args.extent) return;
  uvec4 t = uvec4(0u), v;
  v.x = pass_main(i, t.x);
  if (i + 3u < args.extent) {
    v.y = pass_main(i + 1u, t.y);
    v.z = pass_main(i + 2u, t.z);
    v.w = pass_main(i + 3u, t.w);
    rw_x4(args.dst).v[i >> 2] = v;
    if (LOOP_CHECK) rw_x4(args.trips).v[i >> 2] = t;
    return;
  }
  for (uint q = 0u; q < 4u && i + q < args.extent; ++q) {
    uint trips = 0u;
    args.dst.v[i + q] = q == 0u ? v.x : pass_main(i + q, trips);
    if (LOOP_CHECK) args.trips.v[i + q] = q == 0u ? t.x : trips;
  }
}
