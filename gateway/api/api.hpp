#pragma once
// The application behind the HTTP transport: routes each request and answers
// it exactly once. Deciding what to answer is plain code over values
// (HttpRequest → HttpResponse); blocking work runs on a worker pool.
#include <map>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "executors/executor.hpp"
#include "gateway/api/worker_pool.hpp"
#include "gateway/http/http_types.hpp"

namespace qg::gateway {

// One configured database: its engine and the catalog admission uses (the
// engine's introspected allowlist plus curation and virtual columns).
struct ServedDatabase {
  std::unique_ptr<exec::Executor> executor;
  catalog::Catalog catalog;
};
using ServedDatabases = std::map<std::string, ServedDatabase>;

class Api {
 public:
  Api(config::Config config, ServedDatabases databases, int workers);

  // The transport's Handler: answers on the worker pool (or inline for /healthz).
  void handle(HttpRequest request, Reply reply);

  // The whole decision for one request, synchronously. Public for tests.
  HttpResponse respond(const HttpRequest& request);

 private:
  HttpResponse query(const HttpRequest& request, exec::Deadline deadline);
  HttpResponse schema(const HttpRequest& request);
  HttpResponse ready();
  Result<ServedDatabase*> pick_database(const std::optional<std::string>& name, std::string* resolved);

  config::Config config_;
  ServedDatabases databases_;
  WorkerPool workers_;
};

}  // namespace qg::gateway
