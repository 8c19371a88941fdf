// Blelloch down-sweep, gather form: D_{p-1}[j] = D_p[j >> 1] + (j odd ? U_{p-1}[j − 1] : 0), with
// D = 0 at every segment's root (top). The last pass (inclusive) adds U_0[j] itself, so the scan
// comes out inclusive. Input 0: D_p (ignored at the top); input 1: U_{p-1} (the data, mapped, at p = 1).
WINNOW_ARGS(uint top; uint inclusive; uint map; uint seg;)
#include "mapped.glsl"
uint pass_main(uint j, inout uint trips) {
  uint r = args.top != 0u ? 0u : load0(j >> 1);
  if ((j & 1u) != 0u) r += mapped1(j - 1u, args.map, args.seg);
  if (args.inclusive != 0u) r += mapped1(j, args.map, args.seg);
  return r;
}
