#include "loading/target_tags.hpp"

#include <backplane/plugin.hpp>

namespace backplane::loading {

TargetTags RuntimeTargetTags() { return {BACKPLANE_PLATFORM_TAG, BACKPLANE_ABI_TAG, kBackendApiVersion}; }

}  // namespace backplane::loading
