#version 460
// vk/lookback in the GLSL450 memory model (device-scope acquire/release): lookback.glsl.
#include "lookback.glsl"
