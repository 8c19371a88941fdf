# Sourced at the start of a command on the GPU machine (`. tools/device/env.sh`), from the repository
# root with .gl/ and .libs/ carried (tools/device/libs.sh fetched them): unpacks the loaders into /
# and everything else under /tmp/winnow-libs (never into /: the machine's own tools keep working),
# and points the dynamic linker and the Vulkan loader (the validation layer) there.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /tmp/winnow-libs
for f in .libs/*.deb; do dpkg -x "$f" /tmp/winnow-libs; done
export LD_LIBRARY_PATH=/tmp/winnow-libs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=/tmp/winnow-libs/usr/share/vulkan/explicit_layer.d
# The GPU machine keeps the NVIDIA ICD and EGL vendor file under /usr/local/nvidia: use them when the
# loaders find none of their own.
nvidia=/usr/local/nvidia/share
if [[ -z "${VK_DRIVER_FILES:-}" && -f $nvidia/vulkan/icd.d/nvidia_icd.json ]] &&
  ! ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* >/dev/null 2>&1; then
  export VK_DRIVER_FILES=$nvidia/vulkan/icd.d/nvidia_icd.json
fi
if [[ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" && -f $nvidia/glvnd/egl_vendor.d/10_nvidia.json ]] &&
  ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia/glvnd/egl_vendor.d/10_nvidia.json
fi
unset nvidia
# Binaries carried compressed (the tracked tree leaves room for about two stripped binaries under the
# carry limit): build-gz/NAME.gz or build-gz/NAME.xz unpack into build-carry/NAME, unless one newer is
# there; a failed unpacking leaves nothing behind and fails the sourcing.
mkdir -p build-carry
for winnow_packed in build-gz/*.gz build-gz/*.xz; do
  [ -e "$winnow_packed" ] || continue
  winnow_unpacked=build-carry/$(basename "${winnow_packed%.*}")
  [ "$winnow_unpacked" -nt "$winnow_packed" ] && continue
  python3 -c "import gzip, lzma, shutil, sys
opener = lzma.open if sys.argv[1].endswith('.xz') else gzip.open
shutil.copyfileobj(opener(sys.argv[1]), open(sys.argv[2], 'wb'))" "$winnow_packed" "$winnow_unpacked.part" &&
    mv "$winnow_unpacked.part" "$winnow_unpacked" && chmod +x "$winnow_unpacked" ||
    { rm -f "$winnow_unpacked.part"; echo "tools/device/env.sh: cannot unpack $winnow_packed" >&2; return 1 2>/dev/null || exit 1; }
done
unset winnow_packed winnow_unpacked
