// RLZ modified down-sweep (M09 Alg. 4): DS_p[j] = the length of the invalid run that starts just
// after node j's range. An odd j copies its parent (input 0, DS_{p+1}; 0 at the top); an even j takes
// its right sibling's up-sweep value t (input 1, US_p), plus the parent's when that sibling is full
// (t = size = 2^p). The last pass (p = 0) writes RL[i] = invalid ? 1 + DS_0[i] : 0 directly.
WINNOW_ARGS(uint top; uint size; uint last; uint map;)
#include "mapped.glsl"
uint pass_main(uint j, inout uint trips) {
  uint parent = args.top != 0u ? 0u : load0(j >> 1);
  uint r = parent;
  if ((j & 1u) == 0u) {
    uint t = mapped1(j + 1u, args.map, 1u);
    r = t == args.size ? t + parent : t;
  }
  if (args.last != 0u) r = mapped1(j, args.map, 1u) != 0u ? 1u + r : 0u;
  return r;
}
