#version 460
// vk/lookback state=vmm: flag and value words, release/acquire in the Vulkan memory model
// (queue-family scope, availability and visibility): lookback.glsl.
#pragma use_vulkan_memory_model
#define WINNOW_VULKAN_MEMORY_MODEL 1
#include "lookback.glsl"
