// The concatenation's arguments (args.hpp concat_args): inputs 0 and 1 are the blocks' exclusive
// offsets and counts, input 2 the compacted blocks; method 0 lines, 1 rectangles, 2 copy, 3 search,
// 5 stacks (rectangles 8 rows high over an output laid out in stacks of 8).
WINNOW_ARGS(uint block; uint blocks; uint method;)
