#version 460
// vk/lookback state=relaxed: one 64-bit word per tile (epoch, state and value) with relaxed atomics
// (lookback.glsl).
#define WINNOW_PACKED_STATE 1
#define WINNOW_RELAXED_STATE 1
#include "lookback.glsl"
