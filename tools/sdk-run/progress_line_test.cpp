#include "progress_line.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <thread>

namespace backplane::sdk_run {
namespace {

TEST_CASE("disabled, or work shorter than a second: nothing is written") {
  std::ostringstream out;
  {
    ProgressLine disabled(out, "importing m.onnx", 0, false);
    ProgressLine quick(out, "running", 10, true);
    quick.Advance();
  }
  CHECK(out.str().empty());
}

TEST_CASE("work of unknown size: the label, what is done and the seconds, erased at the end") {
  std::ostringstream out;
  {
    ProgressLine progress(out, "running for 2 s", 0, true);
    progress.Advance();
    progress.Advance();
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  }
  const std::string text = out.str();
  INFO("written: " << text);
  CHECK(text.rfind("\rrunning for 2 s: 2 ... 1.", 0) == 0);
  CHECK(text.find(" s\x1b[K") != std::string::npos);
  CHECK(text.size() >= 4);
  CHECK(text.substr(text.size() - 4) == "\r\x1b[K");  // the line is erased
}

TEST_CASE("work of known size: done/total and the percentage") {
  std::ostringstream out;
  {
    ProgressLine progress(out, "running", 4, true);
    progress.Advance();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  }
  CHECK(out.str().rfind("\rrunning: 1/4 (25%)\x1b[K", 0) == 0);
}

}  // namespace
}  // namespace backplane::sdk_run
