// vk/ballot (Billeter et al. 2009 count / scan / move, with subgroup ballots for compactSIMD).
// Subgroup q of the dispatch owns the contiguous range [q·S·ITEMS, (q+1)·S·ITEMS) of elements
// (S = gl_SubgroupSize, pinned to the size the host queried); the stream is padded with invalid
// elements to whole workgroups, so no invocation tests bounds. Elements are WORDS 32-bit words
// (1, 2, 4: 32-, 64-, 128-bit); an element is valid when its first word (the payload) is non-zero.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "dispatch.glsl"
layout(constant_id = 1) const uint ITEMS = 32u; // elements per lane, a multiple of 4
layout(constant_id = 2) const uint WORDS = 1u;
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer ro_u32x2 { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ro_u32x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer rw_u32x2 { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer rw_u32x4 { uvec4 v[]; };
uint subgroup_range() { return group_index() * gl_NumSubgroups + gl_SubgroupID; }
