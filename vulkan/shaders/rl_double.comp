#version 460
// RLZ run lengths by modified recursive doubling (Moreira et al. 2009 Alg. 2; ALGORITHMS.md §6a):
// r = RL[i]; if r = o and i + o is in the block, r = o + RL[i + o]. After the pass with offset o,
// RL[i] = min(run(i), 2o), runs cut at the block end. a = RL (the data through map k2 on pass 0),
// k0 = o, k1 = B.
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint r = mapped(args.a, i, args.k2, args.k1);
  if (r == args.k0 && (i & (args.k1 - 1u)) + args.k0 < args.k1) r = args.k0 + mapped(args.a, i + args.k0, args.k2, args.k1);
  args.dst.v[i] = r;
}
