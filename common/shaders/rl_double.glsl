// RLZ run lengths by modified recursive doubling (M09 Alg. 2): r = RL[i]; when r = offset and
// i + offset lies in the block, r = offset + RL[i + offset]. After the pass with offset o,
// RL[i] = min(the invalid run starting at i, 2o), runs cut at the block's end. The first pass reads
// the stream through the map (invalid flag).
WINNOW_ARGS(uint offset; uint block; uint map;)
#include "mapped.glsl"
uint pass_main(uint i, inout uint trips) {
  uint r = mapped0(i, args.map, args.block);
  if (r == args.offset && (i & (args.block - 1u)) + args.offset < args.block)
    r = args.offset + mapped0(i + args.offset, args.map, args.block);
  return r;
}
