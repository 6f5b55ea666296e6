#include "loading/target_tags.hpp"

#include <backplane/plugin.hpp>

#include <doctest/doctest.h>

namespace backplane::loading {

TEST_CASE("target_tags: the runtime's own tags are those of plugin.hpp") {
  CHECK(RuntimeTargetTags().platform == BACKPLANE_PLATFORM_TAG);
  CHECK(RuntimeTargetTags().abi == BACKPLANE_ABI_TAG);
  CHECK(RuntimeTargetTags().api == kBackendApiVersion);
}

}  // namespace backplane::loading
