#version 460
// Exclusive result of a stream scan: the in-row inclusive scan − the element + the exclusive scan of
// the row totals (when there is more than one row). a = inclusive, b = values, c = row offsets
// (read when k1 = 1: more than one row), k0 = log2 W.
#include "common.glsl"
void main() {
  uint i = invocation_index();
  if (i >= args.n) return;
  uint r = args.a.v[i] - args.b.v[i];
  if (args.k1 != 0u) r += args.c.v[i >> args.k0];
  args.dst.v[i] = r;
}
