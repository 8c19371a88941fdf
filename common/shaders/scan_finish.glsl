// The exclusive result of a stream scan: the in-row inclusive scan (input 0) − the value (input 1)
// + the exclusive scan of the row totals (input 2, when there is more than one row).
WINNOW_ARGS(uint has_rows; uint row_log2w;)
uint pass_main(uint i, inout uint trips) {
  uint r = load0(i) - load1(i);
  if (args.has_rows != 0u) r += load2(i >> args.row_log2w);
  return r;
}
