# Sourced at the start of a command on the GPU machine (`. tools/device-env.sh`), from the repository
# root with .gl/ and .libs/ carried (tools/device-libs.sh fetched them): unpacks the loaders into /
# and everything else under /tmp/winnow-libs (never into /: the machine's own tools keep working),
# and points the dynamic linker and the Vulkan loader (the validation layer) there.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/winnow-libs
for f in .libs/*.deb; do dpkg -x "$f" /tmp/winnow-libs; done
export LD_LIBRARY_PATH=/tmp/winnow-libs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=/tmp/winnow-libs/usr/share/vulkan/explicit_layer.d
