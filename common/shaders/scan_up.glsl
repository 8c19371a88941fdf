// Blelloch up-sweep, and the Binary-Tree's reduction: U_p[i] = m(U_{p-1}[2i]) + m(U_{p-1}[2i + 1]).
// Input 0 is level p − 1 (the stream, read through the map, when p = 1).
WINNOW_ARGS(uint seg; uint map;)
#include "mapped.glsl"
uint pass_main(uint i, inout uint trips) {
  return mapped0(2u * i, args.map, args.seg) + mapped0(2u * i + 1u, args.map, args.seg);
}
