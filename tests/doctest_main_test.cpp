// The probe program of doctest_main's own tests (doctest_main_test.cmake runs it, registered in
// tests/CMakeLists.txt): cases that pass, fail, end the process, outlive a timeout or are skipped
// by their decorator, for the rules of tests/doctest_main.cpp. Never registered case by case:
// most of these cases fail on purpose.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

TEST_CASE("doctest_main probe: passes") { CHECK(1 + 1 == 2); }

TEST_CASE("doctest_main probe: a name with a, comma, a \\ backslash and a ? passes") { CHECK(true); }

TEST_CASE("doctest_main probe: fails") { CHECK(1 + 1 == 3); }

TEST_CASE("doctest_main probe: exits with status 0") { std::exit(0); }

TEST_CASE("doctest_main probe: sleeps 30 s") { std::this_thread::sleep_for(std::chrono::seconds(30)); }

TEST_CASE("doctest_main probe: skipped by its decorator" * doctest::skip()) { CHECK(false); }
