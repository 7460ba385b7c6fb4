#pragma once

#include <string>

namespace gp::sim::cuda {

/// Number of CUDA devices visible to this process; on 0 `detail` says why.
int deviceCount(std::string& device0Name, std::string& detail);

} // namespace gp::sim::cuda
