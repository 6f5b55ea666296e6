// The runtime's way into the private parts of its application classes (network.hpp,
// optimized_network.hpp, runtime.hpp): their implementations and the runtime's own backend
// instances. The public headers only name this struct as a friend; it is defined here, outside
// the installed headers. Only runtime.cpp wraps and unwraps application objects (and tests reach
// the Network they built): the folders below it take and return the plain Impl types.
#pragma once

#include <backplane/network.hpp>
#include <backplane/optimized_network.hpp>
#include <backplane/runtime.hpp>

#include <memory>

namespace backplane::detail {

struct ImplAccess {
  // The network's graph. Lives as long as `network`.
  static const Network::Impl& Of(const Network& network) { return *network.impl_; }
  // Moves the placed graph out of `network` (then moved from, as after a move) into `placed`,
  // which must be empty; it stays null when `network` already was moved from. By reference, and
  // a swap, for the same reason as Wrap.
  static void Release(OptimizedNetwork& network, std::unique_ptr<OptimizedNetwork::Impl>& placed) {
    placed.swap(network.impl_);
  }
  // An optimized network that takes `impl` (the optimizer's result). By reference, so that
  // this header needs OptimizedNetwork::Impl's definition nowhere (the tests include it).
  static OptimizedNetwork Wrap(std::unique_ptr<OptimizedNetwork::Impl>&& impl) {
    return OptimizedNetwork(std::move(impl));
  }
  // A new instance from the backend's factory, outside any network: for placement (which asks
  // each backend what it supports) and for tests. Throws Exception (kNotFound) for an unknown
  // id, (kBackendFailure) when the factory fails. The instance must not outlive `runtime`.
  static std::unique_ptr<backend::IBackend> CreateBackend(const Runtime& runtime, const BackendId& id) {
    return runtime.CreateBackend(id);
  }
};

}  // namespace backplane::detail
