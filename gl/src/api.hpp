#pragma once
// The few calls that differ between desktop OpenGL (3.3 and 4.5 core) and OpenGL ES 3.1, in one
// place: timer queries (core on GL, EXT_disjoint_timer_query on ES), debug output and groups (core
// or KHR_debug unsuffixed on GL, KHR-suffixed on ES), integer read-back (ES reads RGBA only),
// multisampling (no such switch on ES), conditional rendering (none on ES) and compute shaders (from GL
// 4.3 and ES 3.1: none on a 3.3 context). Everything else the
// backend calls is in both. Each
// function picks by the context at run time; each branch is compiled only where the loader declares
// its API, so the backend also compiles against a loader for GL 3.3 alone or for ES 3.1 alone
// (tests/gl), which is what proves it calls nothing outside them.
#include <glad/gl.h>

#include <cstdint>
#include <string_view>

namespace winnow::gl::api {

// KHR_debug's enums have the same values on both APIs (suffixed on ES): the backend names them so.
inline constexpr GLenum debug_source_application = 0x824A;
inline constexpr GLenum debug_type_error = 0x824C;
inline constexpr GLenum debug_type_push_group = 0x8269;
inline constexpr GLenum debug_type_pop_group = 0x826A;

/// The current context is OpenGL ES (set by the context when it is made, before load()).
[[nodiscard]] bool es();
void set_es(bool es);
/// Loads the entry points of the current context's API (gladLoadGL or gladLoadGLES2); false: failed.
[[nodiscard]] bool load(GLADloadfunc load);

/// GL 3.3's GL_TIMESTAMP and GL_TIME_ELAPSED are ES's GL_TIMESTAMP_EXT and GL_TIME_ELAPSED_EXT
/// (EXT_disjoint_timer_query): the same enums, which each build's headers name one way.
inline constexpr GLenum timestamp = 0x8E28, time_elapsed = 0x88BF;

/// GL_QUERY_COUNTER_BITS of the timestamp query; 0 where the context has none.
[[nodiscard]] int timestamp_bits();
/// GL_QUERY_COUNTER_BITS of the elapsed-time query (GL_TIME_ELAPSED); 0 where the context has none.
[[nodiscard]] int elapsed_bits();
void query_counter(GLuint query);
[[nodiscard]] GLuint64 query_result(GLuint query);
/// ES: the GPU reported a disjoint event (its timer results are void) since the last call; GL: false.
[[nodiscard]] bool timer_disjoint();

/// KHR_debug: the context has it (core from GL 4.3, an extension before and on ES).
[[nodiscard]] bool has_debug();
/// KHR_debug's callback (GLDEBUGPROC on GL, GLDEBUGPROCKHR on ES: the same function type).
using debug_callback = void(GLAD_API_PTR*)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                           const GLchar* message, const void* user);
void debug_output(debug_callback callback); ///< synchronous debug output to `callback`
void debug_group_messages(bool on);         ///< report the application's push/pop group messages
void push_group(std::string_view name);
void pop_group();

/// `rows` rows of `width` texels from row `y0` of the read framebuffer's colour attachment 0, an
/// integer texture of `components` 32-bit unsigned components per texel, into `out` (width × rows ×
/// components words).
void read_uint_rows(int y0, int width, int rows, int components, std::uint32_t* out);

void disable_multisample();

/// Conditional rendering (core from GL 3.0; ES has none): the draws until end_conditional_render()
/// are skipped when `query` (an occlusion query) counted no samples; the GPU waits for its result.
[[nodiscard]] bool has_conditional_render();
void begin_conditional_render(GLuint query);
void end_conditional_render();

/// Compute shaders (core from GL 4.3 and in ES 3.1; a 3.3 context has none): the device check's.
inline constexpr GLenum compute_shader = 0x91B9;        ///< GL_COMPUTE_SHADER
inline constexpr GLenum shader_storage_buffer = 0x90D2; ///< GL_SHADER_STORAGE_BUFFER
[[nodiscard]] bool has_compute();
/// Dispatches x × y workgroups of the program in use, then orders its storage-buffer writes before
/// later buffer reads and maps (glMemoryBarrier).
void dispatch_compute(GLuint x, GLuint y);

} // namespace winnow::gl::api
