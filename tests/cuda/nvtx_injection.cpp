// An NVTX injection library for one test: it sees the ranges winnow pushes, as Nsight Systems
// would, and writes each to the file WINNOW_NVTX_LOG names — "push NAME" and "pop". NVTX loads it
// from NVTX_INJECTION64_PATH at the first NVTX call, so winnow runs exactly as it does for a user.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

namespace {

void log(const char* what, const char* name) {
  const char* path = std::getenv("WINNOW_NVTX_LOG");
  if (!path) return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s%s%s\n", what, name ? " " : "", name ? name : "");
    std::fclose(f);
  }
}

int NVTX_API push(const char* name) {
  log("push", name);
  return 0;
}

int NVTX_API pop() {
  log("pop", nullptr);
  return 0;
}

} // namespace

/// Called by NVTX with its export table: our functions go into the core module's table.
extern "C" NVTX_DYNAMIC_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) ||
      size <= NVTX_CBID_CORE_RangePop)
    return 0;
  *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(push);
  *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(pop);
  return 1;
}
