#include "timed_profile.hpp"

namespace backplane::sdk_run {

std::size_t TimedProfile::EventCount() const {
  std::size_t count = 0;
  for (const ProfiledRun& run : runs) count += run.steps.size();
  return count;
}

ProfiledRun TakeProfiledRun(const ExecutionContext& context, int context_index, int run, double start_us) {
  ProfiledRun profiled{context_index, run, start_us, {}};
  const std::vector<ProfileEvent>& events = context.GetProfile();
  profiled.steps.reserve(events.size());
  for (const ProfileEvent& event : events) profiled.steps.push_back({event.step, event.start_us, event.duration_us});
  return profiled;
}

}  // namespace backplane::sdk_run
