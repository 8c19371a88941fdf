// The row totals of a row-segmented inclusive scan, as a stream of their own: out[j] = the last word
// of row j (rows of `width` words), 0 in the padding past `rows`.
WINNOW_ARGS(uint width; uint rows;)
uint pass_main(uint j, inout uint trips) { return j < args.rows ? load0(j * args.width + args.width - 1u) : 0u; }
