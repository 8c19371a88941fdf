// The compute side of the shader-era passes (common/shaders/README.md): every array a buffer addressed
// by pointer (buffer device address), element i at index i; the arguments are push constants — the
// addresses of inputs 0-2, the output and the loop trips, then the io fields and the pass's own
// (WINNOW_ARGS). Constant 0 is the local size, constant 1 turns the loop check on.
#include "dispatch.glsl"
layout(constant_id = 1) const bool LOOP_CHECK = false;
#define WINNOW_ARGS(fields) layout(push_constant, std430) uniform winnow_args { ro_u32 in0; ro_u32 in1; ro_u32 in2; rw_u32 dst; rw_u32 trips; uint out_log2w; uint out_height; uint extent; uint in0_log2w; uint in1_log2w; uint in2_log2w; fields } args;
// A field the same in every pass of a run, compiled into the pipeline (graphics.glsl says more).
#define WINNOW_CONSTANT(id, field) layout(constant_id = id) const uint field##_constant = 0u;
#define WINNOW_CONST(field) field##_constant
#define load0(i) args.in0.v[i]
#define load1(i) args.in1.v[i]
#define load2(i) args.in2.v[i]
// Level p (≥ 1) of the pyramid on input 1, its levels back to back in one buffer: level p at word
// s − (s >> (p − 1)), s = the pyramid's base size — the output's, as only the traversal reads a whole
// pyramid and it writes the full stream.
#define load_level1(p, j) args.in1.v[args.extent - (args.extent >> ((p) - 1u)) + (j)]
#define winnow_find_msb findMSB // graphics.glsl has a stand-in for GLSL 3.30
