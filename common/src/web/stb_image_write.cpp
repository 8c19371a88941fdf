// The web build's stb_image_write: the native build links Debian's libstb, which holds this
// implementation compiled; Emscripten can link no library of the host, so the header is compiled here.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
