// The main() of every doctest executable: link the backplane_test_main object library.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
