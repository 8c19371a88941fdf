// Every timed phase of a Vulkan run is a debug label of its name: what RenderDoc or Nsight would
// show. The CLI runs as a user runs it, with a layer (label_layer.cpp) logging the labels it records.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

namespace fs = std::filesystem;

TEST(vk_labels, every_timed_phase_is_a_debug_label_of_its_name_on_both_paths) {
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason;
  // vulkan_tests carried to another machine without its build tree (tools/device) has neither.
  if (!fs::exists(WINNOW_EXE) || !fs::exists(WINNOW_LABEL_LAYER_DIR))
    GTEST_SKIP() << "the CLI (" WINNOW_EXE ") or the label layer (" WINNOW_LABEL_LAYER_DIR
                    ") is not where the build put it: this binary was carried without its build tree";
  const fs::path dir = fs::temp_directory_path() / ("winnow_labels_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const std::string algo : {"vk/ballot", "vk/horn", "vkfrag/rlz"}) {
    const fs::path log = dir / "labels.txt", rec = dir / "record.jsonl";
    fs::remove(log);
    const std::string env = "VK_ADD_LAYER_PATH=" WINNOW_LABEL_LAYER_DIR
                            " VK_INSTANCE_LAYERS=VK_LAYER_WINNOW_labels WINNOW_LABEL_LOG=" +
                            log.string() + " ";
    const std::string cmd = env + WINNOW_EXE + " run --algo " + algo +
                            " --case uniform:5000:p=0.3 --reps 1 --warmup 0 --warmup-time 0 --out " + rec.string() +
                            " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(log);
    ASSERT_TRUE(in) << "the layer saw no label: was it loaded? " << cmd;
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::set<std::string> labelled;
    int open = 0;
    for (const auto& line : lines) {
      if (line.rfind("begin ", 0) == 0) {
        EXPECT_EQ(open, 0) << algo << ": a label begun inside another";
        ++open;
        labelled.insert(line.substr(6));
      } else {
        EXPECT_EQ(line, "end");
        --open;
      }
    }
    EXPECT_EQ(open, 0) << algo << ": a label left open";
    std::ifstream records(rec);
    std::string first;
    std::getline(records, first);
    std::set<std::string> timed;
    const auto j = nlohmann::json::parse(first);
    for (const auto& p : j.at("phases")) timed.insert(p.at("name").get<std::string>());
    EXPECT_FALSE(timed.empty());
    EXPECT_EQ(labelled, timed) << algo;
  }
  fs::remove_all(dir);
}

} // namespace
} // namespace winnow::vk
