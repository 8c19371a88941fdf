#version 460
// vk/lookback state=packed: one 64-bit word per tile (epoch, state and value), stored with release
// and loaded with acquire semantics at device scope (lookback.glsl).
#define WINNOW_PACKED_STATE 1
#include "lookback.glsl"
