#pragma once
// Helpers for black-box tests: run the real querygate binary and talk to it
// over loopback HTTP with a tiny blocking client (plain sockets, so the tests
// do not depend on the transport they test).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace qg::testing {

struct HttpResult {
  int status = 0;       // 0: no response (connection closed or failed)
  std::string headers;  // raw header block
  std::string body;
};

// Sends raw bytes and reads until the server closes or `timeout` passes.
std::string raw_exchange(int port, const std::string& bytes, std::chrono::milliseconds timeout);
HttpResult http(int port, const std::string& method, const std::string& target, const std::string& body = {},
                const std::string& extra_headers = {});
HttpResult parse_response(const std::string& raw);

struct Command {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
Command run_command(const std::vector<std::string>& argv);

class GatewayProcess {
 public:
  // Starts `querygate --config <file> --listen 127.0.0.1:0` and waits until it prints its port.
  explicit GatewayProcess(const std::filesystem::path& config_file);
  ~GatewayProcess();
  GatewayProcess(const GatewayProcess&) = delete;
  GatewayProcess& operator=(const GatewayProcess&) = delete;

  int port() const { return port_; }
  bool alive() const;
  // Sends SIGTERM and waits; returns the exit status (or -1).
  int stop();
  std::string log() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::filesystem::path log_file_;
};

std::filesystem::path make_temp_dir(const std::string& prefix);
void write_file(const std::filesystem::path& path, const std::string& text);

}  // namespace qg::testing
