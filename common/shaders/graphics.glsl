// The graphics pipeline's side of the shader-era passes (see README.md): streams are R32UI textures
// of power-of-two width, read with texelFetch at (i mod W, i div W). Inputs 0-2 on texture units
// 0-2, the levels 1-12 of a pyramid given as input 1 on units 3-14. OpenGL takes the arguments as a
// uniform block (binding 0); Vulkan (glslc defines VULKAN) as push constants and descriptor set 0,
// where the vertex index is gl_VertexIndex (WINNOW_VERTEX_INDEX on both). The fields a pass declares
// with WINNOW_CONSTANT(id, field) and reads as WINNOW_CONST(field) — those the same in every pass of a
// run (args.hpp's `constants`) — are specialization constants on Vulkan, compiled into the pipeline,
// and arguments on GL. GLSL 3.30 (an OpenGL 3.3
// context: the GL backend defines WINNOW_GL33) has no layout(binding) — the backend sets the units
// and the block's binding by name instead — no findMSB, and matches varyings by name, not location.
// ESSL 3.00 (WebGL 2, the web build) lacks the same three: the backend defines WINNOW_GL33 there too.
#ifdef VULKAN
#define WINNOW_VERTEX_INDEX gl_VertexIndex
#define WINNOW_BINDING(unit) layout(set = 0, binding = unit)
#define WINNOW_VARYING(loc) layout(location = loc)
#define WINNOW_ARGS(fields) layout(push_constant, std430) uniform winnow_args { uint out_log2w; uint out_height; uint extent; uint in0_log2w; uint in1_log2w; uint in2_log2w; fields } args;
#define WINNOW_CONSTANT(id, field) layout(constant_id = id) const uint field##_constant = 0u;
#define WINNOW_CONST(field) field##_constant
#elif defined(WINNOW_GL33)
#define WINNOW_VERTEX_INDEX gl_VertexID
#define WINNOW_BINDING(unit)
#define WINNOW_VARYING(loc)
#define WINNOW_ARGS(fields) layout(std140) uniform winnow_args { uint out_log2w; uint out_height; uint extent; uint in0_log2w; uint in1_log2w; uint in2_log2w; fields } args;
#define WINNOW_CONSTANT(id, field)
#define WINNOW_CONST(field) args.field
#else
#define WINNOW_VERTEX_INDEX gl_VertexID
#define WINNOW_BINDING(unit) layout(binding = unit)
#define WINNOW_VARYING(loc) layout(location = loc)
#define WINNOW_ARGS(fields) layout(std140, binding = 0) uniform winnow_args { uint out_log2w; uint out_height; uint extent; uint in0_log2w; uint in1_log2w; uint in2_log2w; fields } args;
#define WINNOW_CONSTANT(id, field)
#define WINNOW_CONST(field) args.field
#endif
#ifdef WINNOW_GL33
// The index of the highest set bit of x (x ≥ 1), by halving: findMSB is GLSL 4.00.
int winnow_find_msb(uint x) {
  int n = 0;
  if (x >= 0x10000u) { x >>= 16; n += 16; }
  if (x >= 0x100u) { x >>= 8; n += 8; }
  if (x >= 0x10u) { x >>= 4; n += 4; }
  if (x >= 0x4u) { x >>= 2; n += 2; }
  if (x >= 0x2u) n += 1;
  return n;
}
#else
#define winnow_find_msb findMSB
#endif
WINNOW_BINDING(0) uniform usampler2D u_in0;
WINNOW_BINDING(1) uniform usampler2D u_in1;
WINNOW_BINDING(2) uniform usampler2D u_in2;
WINNOW_BINDING(3) uniform usampler2D u_level[12];
uint fetch(usampler2D t, uint i, uint log2w) {
  return texelFetch(t, ivec2(int(i & ((1u << log2w) - 1u)), int(i >> log2w)), 0).r;
}
#define load0(i) fetch(u_in0, (i), args.in0_log2w)
#define load1(i) fetch(u_in1, (i), args.in1_log2w)
#define load2(i) fetch(u_in2, (i), args.in2_log2w)
// Level p (≥ 1) of the pyramid on input 1: (W >> p) wide, W = 2^in1_log2w. The array is indexed by
// constants only: Vulkan indexes sampler arrays by a variable only with an optional feature
// (shaderSampledImageArrayDynamicIndexing, which lavapipe lacks), and both APIs run this one text.
uint fetch_level(uint p, uint j, uint log2w) {
  switch (p) {
  case 1u: return fetch(u_level[0], j, log2w);
  case 2u: return fetch(u_level[1], j, log2w);
  case 3u: return fetch(u_level[2], j, log2w);
  case 4u: return fetch(u_level[3], j, log2w);
  case 5u: return fetch(u_level[4], j, log2w);
  case 6u: return fetch(u_level[5], j, log2w);
  case 7u: return fetch(u_level[6], j, log2w);
  case 8u: return fetch(u_level[7], j, log2w);
  case 9u: return fetch(u_level[8], j, log2w);
  case 10u: return fetch(u_level[9], j, log2w);
  case 11u: return fetch(u_level[10], j, log2w);
  default: return fetch(u_level[11], j, log2w);
  }
}
#define load_level1(p, j) fetch_level((p), (j), args.in1_log2w - (p))
