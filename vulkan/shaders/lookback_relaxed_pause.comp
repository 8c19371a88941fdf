#version 460
// vk/lookback state=relaxed wait=pause: as lookback_relaxed.comp, with pauses in the look-back
// (lookback.glsl; needs VK_KHR_shader_clock's subgroup clock).
#define WINNOW_PACKED_STATE 1
#define WINNOW_RELAXED_STATE 1
#define WINNOW_PAUSE 1
#include "lookback.glsl"
