#include "tests/integration/test_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace qg::testing {

std::filesystem::path make_temp_dir(const std::string& prefix) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string raw_exchange(int port, const std::string& bytes, std::chrono::milliseconds timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return {};
  }
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  std::string out;
  const auto end = std::chrono::steady_clock::now() + timeout;
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return out;
}

HttpResult parse_response(const std::string& raw) {
  HttpResult r;
  const auto header_end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.", 0) != 0 || header_end == std::string::npos) return r;
  r.status = std::atoi(raw.substr(9, 3).c_str());
  r.headers = raw.substr(0, header_end);
  r.body = raw.substr(header_end + 4);
  return r;
}

HttpResult http(int port, const std::string& method, const std::string& target, const std::string& body,
                const std::string& extra_headers) {
  std::ostringstream req;
  req << method << " " << target << " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!body.empty() || method == "POST")
    req << "Content-Type: application/json\r\nContent-Length: " << body.size() << "\r\n";
  req << extra_headers << "\r\n" << body;
  return parse_response(raw_exchange(port, req.str(), std::chrono::seconds(60)));
}

Command run_command(const std::vector<std::string>& argv) {
  const auto dir = make_temp_dir("qg-cmd");
  const auto out_file = dir / "out.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::ifstream in(out_file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::filesystem::remove_all(dir);
  return Command{WIFEXITED(status) ? WEXITSTATUS(status) : -1, ss.str()};
}

std::optional<PgTestServer> pg_test_server() {
  const char* host = std::getenv("QG_TEST_PG_HOST");
  const char* port = std::getenv("QG_TEST_PG_PORT");
  if (!host || !*host || !port || !*port) return std::nullopt;
  PgTestServer s{host, 0};
  try {
    s.port = std::stoi(port);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (s.port <= 0 || s.port > 65535) return std::nullopt;
  return s;
}

std::string pg_dsn(const PgTestServer& server, const std::string& role, const std::string& database) {
  return "postgresql://" + role + ":" + role + "@" + server.host + ":" + std::to_string(server.port) + "/" + database;
}

bool pg_required() {
  const char* v = std::getenv("QG_REQUIRE_PG");
  return v && std::string(v) == "1";
}

std::string pg_unreachable_reason(const PgTestServer& server) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(server.port));
  if (inet_pton(AF_INET, server.host.c_str(), &addr.sin_addr) != 1) {
    close(fd);
    return "QG_TEST_PG_HOST '" + server.host + "' is not an IPv4 address";
  }
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  if (ok) return {};
  return "nothing accepts connections on " + server.host + ":" + std::to_string(server.port) +
         " (scripts/pg-test-cluster.sh start)";
}

GatewayProcess::GatewayProcess(const std::filesystem::path& config_file) {
  // Named after the config (q.yaml: q.log), so two gateways started from two
  // configs in one folder never share a log: each must read its own
  // "listening on" line, not the other's port.
  log_file_ = config_file.parent_path() / (config_file.stem().string() + ".log");
  // Emptied before the fork: an earlier gateway's log left there would otherwise show its
  // "listening on" line (a dead port) to the wait below, before the child truncates it.
  std::ofstream(log_file_, std::ios::trunc).close();
  pid_ = fork();
  if (pid_ == 0) {
    const int fd = open(log_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execl(QG_BINARY, QG_BINARY, "--config", config_file.c_str(), "--listen", "127.0.0.1:0", nullptr);
    _exit(127);
  }
  // Wait (bounded) for the start-up line that names the port.
  const std::regex line(R"(listening on http://127\.0\.0\.1:(\d+))");
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    std::smatch m;
    const std::string text = log();
    if (std::regex_search(text, m, line)) {
      port_ = std::stoi(m[1]);
      return;
    }
    if (!alive()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("querygate did not start: " + log());
}

GatewayProcess::~GatewayProcess() {
  if (pid_ > 0) stop();
}

bool GatewayProcess::alive() const {
  return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0;
}

int GatewayProcess::stop() {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  int status = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string GatewayProcess::log() const {
  std::ifstream in(log_file_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t past_json_value(const std::string& s, std::size_t i) {
  int depth = 0;
  bool in_string = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      if (!in_string && depth == 0) return i + 1;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}') {
      if (depth == 0) return i;  // the end of the enclosing row: a literal ended here
      if (--depth == 0) return i + 1;
    } else if (c == ',' && depth == 0)
      return i;
  }
  return i;
}

}  // namespace qg::testing
