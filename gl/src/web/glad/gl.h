// The web build's stand-in for glad's gl.h (WINNOW_WEB, on gl's include path there only, as
// common/src/web/tbb stands in for oneTBB): Emscripten's OpenGL ES 3.0 headers, which WebGL 2 is, and
// glad's few names that gl/ uses. GL_ES_VERSION_3_0 is defined and GL_VERSION_3_3 and
// GL_ES_VERSION_3_1 are not, so gl/src/api.cpp compiles its ES branches alone. The flags say which
// extensions the context has: KHR_debug never (its calls, which the flag keeps from running, do
// nothing); EXT_disjoint_timer_query where the browser offers EXT_disjoint_timer_query_webgl2
// (gl/src/web/context.cpp sets the flag), through Emscripten's own entry points.
#pragma once
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#define GLAD_API_PTR
typedef void (*GLADapiproc)(void);
typedef GLADapiproc (*GLADloadfunc)(const char* name);

inline int GLAD_GL_KHR_debug = 0;
inline int GLAD_GL_EXT_disjoint_timer_query = 0;
inline int GLAD_GL_EXT_memory_object = 0;
/// WebGL's entry points are linked in (library_webgl.js): nothing to load.
inline int gladLoadGLES2(GLADloadfunc) { return 1; }

// EXT_disjoint_timer_query_webgl2: Emscripten links queryCounterEXT and the 64-bit result
// (library_webgl.js); getQuery is WebGL 2's own there (its glGetQueryivEXT asks the WebGL 1 extension).
extern "C" void glQueryCounterEXT(GLuint id, GLenum target);
extern "C" void glGetQueryObjectui64vEXT(GLuint id, GLenum pname, GLuint64* params);
inline void glGetQueryivEXT(GLenum target, GLenum pname, GLint* params) { glGetQueryiv(target, pname, params); }

// Called only where the flags above say the context has them: never in the browser.
inline void glDebugMessageCallbackKHR(GLDEBUGPROCKHR, const void*) {}
inline void glDebugMessageControlKHR(GLenum, GLenum, GLenum, GLsizei, const GLuint*, GLboolean) {}
inline void glPushDebugGroupKHR(GLenum, GLuint, GLsizei, const GLchar*) {}
inline void glPopDebugGroupKHR() {}
