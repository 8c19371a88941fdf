#version 460
// One count per block, as a stream of nb values padded to the counts layout with 0 (ALGORITHMS.md §8
// step 2). k0 = 0: B − the block's last in-block inclusive scan of invalid flags (a = that scan);
// k0 = 1: a holds one count per block (the Binary-Tree's roots). k1 = blocks. Constant 1: B.
#include "common.glsl"
layout(constant_id = 1) const uint B = 32u;
void main() {
  uint j = invocation_index();
  if (j >= args.n) return;
  uint r = 0u;
  if (j < args.k1) r = args.k0 == 0u ? B - args.a.v[j * B + B - 1u] : args.a.v[j];
  args.dst.v[j] = r;
}
