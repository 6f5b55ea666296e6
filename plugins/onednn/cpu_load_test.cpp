// CpuLoadMonitor's source: the runnable-thread field of /proc/loadavg.
#include "cpu_load.hpp"

#include <doctest/doctest.h>

namespace backplane::onednn {
namespace {

TEST_CASE("cpu load: the runnable-thread count is read from a /proc/loadavg line") {
  CHECK(RunnableThreads("0.52 0.58 0.59 3/245 12345") == 3);
  CHECK(RunnableThreads("12.00 8.50 7.10 17/1024 99\n") == 17);
  CHECK_FALSE(RunnableThreads("").has_value());
  CHECK_FALSE(RunnableThreads("0.52 0.58 0.59 /245 1").has_value());
  CHECK_FALSE(RunnableThreads("0.52 0.58 0.59 x/245 1").has_value());
  CHECK_FALSE(RunnableThreads("0.52 0.58").has_value());
  CHECK(IsRunningStat("1234 (sdk-run) R 1 1234 1234 0 -1"));
  CHECK(IsRunningStat("1234 (a (b) c) R 1"));
  CHECK_FALSE(IsRunningStat("1234 (sdk-run) S 1 1234"));
  CHECK_FALSE(IsRunningStat("1234 (R) S 1"));
  CHECK_FALSE(IsRunningStat("garbage"));
  // This test is the only busy thread of its process: wanting one thread on a machine with
  // more cores than other runnable threads is never busy; wanting more than the cores always is.
  CpuLoadMonitor monitor(64);
  for (int i = 0; i < 5; ++i) CHECK_FALSE(monitor.Busy(1));
  CpuLoadMonitor tiny(1);
  CHECK(tiny.Busy(2));
}

}  // namespace
}  // namespace backplane::onednn
