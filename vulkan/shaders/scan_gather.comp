#version 460
// Row totals of a row-segmented inclusive scan, as a stream of their own: out[j] = in[j·W + W − 1]
// for j < rows, 0 in the padding. a = in, k0 = W, k1 = rows.
#include "common.glsl"
void main() {
  uint j = invocation_index();
  if (j >= args.n) return;
  args.dst.v[j] = j < args.k1 ? args.a.v[j * args.k0 + args.k0 - 1u] : 0u;
}
