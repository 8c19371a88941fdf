// One count per block, as a stream of `blocks` words padded with 0. mode 0: B − the block's last
// in-block inclusive scan of the invalid flags (input 0 is that scan); mode 1: input 0 holds one
// count per block (the Binary-Tree's roots).
WINNOW_ARGS(uint mode; uint blocks; uint block;)
uint pass_main(uint j, inout uint trips) {
  if (j >= args.blocks) return 0u;
  return args.mode == 0u ? args.block - load0(j * args.block + args.block - 1u) : load0(j);
}
