// One Hillis-Steele pass within segments of `seg` words: out[i] = m(in[i]) + m(in[i − offset]) when
// i − offset lies in i's segment (docs/algorithms.md, "Prefix sums"). The first pass of a scan reads
// through the map (Horn's StartScan extracts the flags so); later passes use the identity.
WINNOW_ARGS(uint offset; uint seg; uint map;)
#include "mapped.glsl"
uint pass_main(uint i, inout uint trips) {
  uint r = mapped0(i, args.map, args.seg);
  if ((i & (args.seg - 1u)) >= args.offset) r += mapped0(i - args.offset, args.map, args.seg);
  return r;
}
