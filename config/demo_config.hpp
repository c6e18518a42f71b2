#pragma once
// The demo configuration (config/demo.yaml), embedded in the binary at build
// time so `querygate` with no arguments serves the demo from anywhere.
#include <string_view>

namespace qg::config {

std::string_view demo_config_yaml();

}  // namespace qg::config
