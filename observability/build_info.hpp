#pragma once
// Which build is running, for querygate_build_info. Both strings are fixed when
// CMake configures (generated/build_info.cpp from build_info.cpp.in), so only
// that one file recompiles when they change.
#include <string_view>

namespace qg::observability {

std::string_view build_version();  // the project's version (CMakeLists.txt)
std::string_view build_commit();   // `git rev-parse --short HEAD` at configure time, or "unknown"

}  // namespace qg::observability
