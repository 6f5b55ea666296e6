// ThreadGate: units are clamped to the capacity, and a caller waits while the cores are taken.
#include "thread_gate.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace backplane::onednn {
namespace {

TEST_CASE("thread gate: clamps requests to its capacity and blocks while the cores are taken") {
  ThreadGate gate(2);
  CHECK(gate.Capacity() == 2);
  CHECK(ThreadGate(0).Capacity() == 1);
  std::atomic<bool> second_started{false};
  std::atomic<bool> second_done{false};
  std::thread second;
  {
    GateUnits held(gate, 64);  // clamped to 2: the whole gate
    CHECK(held.Units() == 2);
    second = std::thread([&] {
      second_started = true;
      GateUnits units(gate, 1);
      second_done = true;
    });
    while (!second_started) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(second_done.load());  // still waiting: no core free
  }
  second.join();
  CHECK(second_done.load());
  // Two single-unit holders fit together.
  GateUnits a(gate, 1), b(gate, 1);
  CHECK(a.Units() + b.Units() == 2);
}

}  // namespace
}  // namespace backplane::onednn
