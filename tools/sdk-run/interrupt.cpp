#include "interrupt.hpp"

#include <atomic>
#include <csignal>

namespace backplane::sdk_run {

namespace {

// The only state a signal handler may touch is a lock-free atomic or a volatile
// std::sig_atomic_t ([support.signal]); the runs read the flag from several threads, which
// only an atomic allows. Process-wide because a signal is.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT flag must be lock-free");

void OnInterrupt(int signal) {
  interrupted.store(true);
  std::signal(signal, SIG_DFL);  // a second Ctrl-C ends the process
}

}  // namespace

InterruptScope::InterruptScope() {
  interrupted.store(false);
  previous_ = std::signal(SIGINT, OnInterrupt);
}

InterruptScope::~InterruptScope() {
  std::signal(SIGINT, previous_ == SIG_ERR ? SIG_DFL : previous_);
}

bool InterruptRequested() { return interrupted.load(); }

}  // namespace backplane::sdk_run
