// The mark pass's arguments: input 0 is the removal list, the output the stream; `removals` = |R|
// (also the io extent: the points drawn, the invocations dispatched).
WINNOW_ARGS(uint removals;)
