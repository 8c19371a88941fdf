#version 460
// vk/lookback state=glsl450: flag and value words, device-scope release/acquire of the GLSL450
// memory model (lookback.glsl).
#include "lookback.glsl"
