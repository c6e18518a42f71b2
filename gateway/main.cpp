// querygate: command line, start-up and shutdown. Everything else lives in the
// folders named after the pipeline.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "demo/demo_pg_script.hpp"
#include "gateway/auth/keys.hpp"
#include "gateway/auth/sha256.hpp"
#include "gateway/startup.hpp"

namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  querygate [--config FILE] [--listen HOST:PORT] [--demo-dir DIR]\n"
    "      serve the databases in FILE; without --config, serve the embedded demo\n"
    "      (its SQLite database is generated in DIR, default: <binary's folder>/demo)\n"
    "  querygate --check-config FILE   validate FILE and the databases it names, then exit\n"
    "  querygate demo-db PATH          (re)create the demo SQLite database at PATH\n"
    "  querygate demo-db --postgres FILE.sql\n"
    "      write the same demo as a psql script (- for standard output); load it into an empty\n"
    "      database with: psql -v ON_ERROR_STOP=1 -1 -d DBNAME -f FILE.sql\n"
    "  querygate hash-key [TOKEN]      print the SHA-256 (hex) of an API token for the config's keys:\n"
    "      (reads the token from standard input when not given; prefer that: arguments show in ps)\n"
    "  querygate --version\n";

int fail(const std::string& message) {
  std::cerr << "querygate: " << message << "\n";
  return 2;
}

// Shorter tokens can be guessed; 32 random bytes in hex are 64 characters.
constexpr std::size_t kShortToken = 32;

int hash_key(const std::optional<std::string>& argument) {
  std::string token;
  if (argument) {
    token = *argument;
  } else {
    std::getline(std::cin, token);
    if (!token.empty() && token.back() == '\r') token.pop_back();
  }
  if (!qg::auth::is_bearer_token(token))
    return fail(
        "hash-key: a token must be letters, digits and - . _ ~ + / (then optional '=' padding), "
        "as an HTTP Bearer token allows; got " +
        std::to_string(token.size()) +
        " characters that are not\n"
        "Make one with: head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \\n'");
  if (token.size() < kShortToken)
    std::cerr << "querygate: warning: the token is shorter than " << kShortToken
              << " characters; a random 64-hex-digit token is safer\n";
  std::cout << qg::auth::to_hex(qg::auth::sha256(token)) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  qg::gateway::StartupOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      (void)flag;
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << "querygate " << QG_VERSION << "\n";
      return 0;
    } else if (a == "demo-db") {
      if (i + 1 >= args.size()) return fail("demo-db needs a PATH\n" + std::string(kUsage));
      if (args[i + 1] == "--postgres") {
        if (i + 3 != args.size()) return fail("demo-db --postgres needs exactly one FILE\n" + std::string(kUsage));
        auto s = qg::exec::create_demo_pg_script(args[i + 2]);
        if (!s) return fail(s.error().message);
        // With "-" the script is on standard output, so the note goes to standard error.
        (args[i + 2] == "-" ? std::cerr : std::cout) << "demo PostgreSQL script written to " << args[i + 2] << "\n";
        return 0;
      }
      auto s = qg::gateway::create_demo_database(args[i + 1]);
      if (!s) return fail(s.error().message);
      std::cout << "demo database written to " << args[i + 1] << "\n";
      return 0;
    } else if (a == "hash-key") {
      if (i + 2 < args.size()) return fail("hash-key takes at most one TOKEN\n" + std::string(kUsage));
      return hash_key(i + 1 < args.size() ? std::optional<std::string>(args[i + 1]) : std::nullopt);
    } else if (a == "--check-config") {
      auto file = value(a);
      if (!file) return fail("--check-config needs a FILE");
      auto s = qg::gateway::check_config(*file);
      if (!s) return fail(s.error().message + (s.error().fix.empty() ? "" : "\n" + s.error().fix));
      std::cout << "config OK: " << *file << "\n";
      return 0;
    } else if (a == "--config") {
      auto file = value(a);
      if (!file) return fail("--config needs a FILE");
      options.config_file = *file;
    } else if (a == "--listen") {
      auto l = value(a);
      if (!l) return fail("--listen needs HOST:PORT");
      options.listen = *l;
    } else if (a == "--demo-dir") {
      auto d = value(a);
      if (!d) return fail("--demo-dir needs a DIR");
      options.demo_dir = *d;
    } else {
      return fail("unknown argument '" + a + "'\n" + kUsage);
    }
  }
  if (options.demo_dir.empty()) {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    options.demo_dir = ec ? std::filesystem::current_path() / "demo" : self.parent_path() / "demo";
  }

  // Block the stop signals in every thread; the main thread waits for them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto running = qg::gateway::start(options);
  if (!running) return fail(running.error().message + (running.error().fix.empty() ? "" : "\n" + running.error().fix));

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  std::cerr << "querygate: stopping (signal " << signal_number << ")\n";
  (*running)->stop();
  return 0;
}
