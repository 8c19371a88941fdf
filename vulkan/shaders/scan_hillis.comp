#version 460
// One Hillis-Steele pass within segments of k1 elements: out[i] = in[i] + in[i - o] when i - o is in
// the same segment (ALGORITHMS.md §2). a = in, dst = out, k0 = o, k1 = seg, k2 = map (pass 0 fuses
// the flag extraction, as Horn's StartScan).
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint r = mapped(args.a, i, args.k2, args.k1);
  if ((i & (args.k1 - 1u)) >= args.k0) r += mapped(args.a, i - args.k0, args.k2, args.k1);
  args.dst.v[i] = r;
}
