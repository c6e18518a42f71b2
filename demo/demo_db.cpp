#include "demo/demo_db.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "demo/demo_text.hpp"
#include "executors/sqlite/sqlite_handle.hpp"

namespace qg::exec {
namespace {

using demo::Filler;
using demo::iso8601;
using demo::JsonObject;
using demo::Rng;

namespace fs = std::filesystem;
using Millis = std::int64_t;  // milliseconds since the Unix epoch, UTC

// ---- sizes and the time window ---------------------------------------------

constexpr int kUsers = 200;
constexpr int kApiKeys = 100;
constexpr int kTraces = 8000;
constexpr std::uint64_t kSeed = 0x5157'4741'5445'0001ULL;  // "QWGATE" + version; change = new data set
constexpr int kInjectionEvery = 100;                       // trace i carries an injection when i % 100 == 37 (1 %)
constexpr int kInjectionOffset = 37;
constexpr int kFeedbackInjectionEvery = 25;  // every 25th human comment carries one too

constexpr Millis kSecond = 1000;
constexpr Millis kMinute = 60 * kSecond;
constexpr Millis kHour = 60 * kMinute;
constexpr Millis kDay = 24 * kHour;
constexpr int kWindowDays = 60;

constexpr Millis epoch_ms(std::chrono::year_month_day ymd) {
  return std::chrono::sys_days{ymd}.time_since_epoch().count() * kDay;
}

constexpr Millis kWindowEnd = epoch_ms(std::chrono::year{2026} / 11 / 15);
constexpr Millis kWindowStart = kWindowEnd - kWindowDays * kDay;
constexpr Millis kLastTraceStart = kWindowEnd - 15 * kMinute;  // every trace ends inside the window

int approx_tokens(std::string_view text) {
  return static_cast<int>(text.size() + 3) / 4;
}

// ---- one trace as a tree of spans ------------------------------------------

struct SpanNode {
  int parent = -1;  // index into the trace's nodes; nodes are in pre-order
  std::string name;
  std::string_view kind;
  int step = 0;       // agent.step number
  Millis own_ms = 0;  // a leaf's duration
  bool error = false;
  std::string error_message;
  std::string attributes;  // leaves: set when built; inner nodes: after errors propagate
  std::optional<double> cost_usd;
  Millis start = 0, end = 0;  // relative to the trace start until placed
};

struct TraceRequest {
  const demo::Domain* domain;
  std::string prompt;
  std::string answer;  // what the final LLM call returns
  const demo::Model* model;
};

// Builds the span tree of one trace. Children run one after another inside their
// parent, so a child's time range always lies within its parent's.
class TraceBuilder {
 public:
  TraceBuilder(Rng& rng, Filler& filler, const TraceRequest& req) : rng_(rng), filler_(filler), req_(req) {}

  std::vector<SpanNode> build() {
    const auto& shapes = req_.domain->shapes;
    const int shape_weights[] = {shapes.chat, shapes.rag, shapes.agent};
    switch (rng_.weighted(std::span<const int>(shape_weights), [](int w) { return w; })) {
      case 0:
        build_chat();
        break;
      case 1:
        build_rag();
        break;
      default:
        build_agent();
        break;
    }
    propagate_errors();
    describe_inner_nodes();
    layout(0, 0);
    return std::move(nodes_);
  }

 private:
  int add(int parent, std::string name, std::string_view kind) {
    SpanNode& node = nodes_.emplace_back();
    node.parent = parent;
    node.name = std::move(name);
    node.kind = kind;
    return static_cast<int>(nodes_.size()) - 1;
  }

  // A leaf that fails with probability error_permille / 1000.
  int add_leaf(int parent, std::string name, std::string_view kind, int error_permille,
               std::span<const std::string_view> errors) {
    const int id = add(parent, std::move(name), kind);
    if (rng_.permille(error_permille)) {
      nodes_[id].error = true;
      nodes_[id].error_message = rng_.pick(errors);
    }
    return id;
  }

  // A failed span records why, as OpenTelemetry's exception event would.
  static void set_attributes(SpanNode& n, JsonObject a) {
    if (n.error) a.str("exception.message", n.error_message);
    n.attributes = a.done();
  }

  int add_llm(int parent, int context_tokens, std::string_view output) {
    const int id = add_leaf(parent, "ChatCompletion", "LLM", 30, demo::llm_errors());
    SpanNode& n = nodes_[id];
    const demo::Model& m = *req_.model;
    const int prompt_tokens = req_.domain->system_prompt_tokens + static_cast<int>(rng_.between(0, 40)) +
                              context_tokens + approx_tokens(req_.prompt);
    // A failed call returns nothing and is not billed.
    const int completion_tokens = n.error ? 0 : approx_tokens(output) + static_cast<int>(rng_.between(10, 400));
    const std::int64_t nano_usd =
        prompt_tokens * m.nano_usd_per_prompt_token + completion_tokens * m.nano_usd_per_completion_token;
    n.cost_usd = n.error ? 0.0 : static_cast<double>(nano_usd) / 1e9;
    n.own_ms = n.error ? rng_.between(200, 5000)
                       : rng_.between(150, 900) + Millis{completion_tokens} * m.ms_per_completion_token;
    JsonObject a;
    a.str("llm.model_name", m.name).str("llm.provider", m.provider);
    a.num("llm.token_count.prompt", prompt_tokens).num("llm.token_count.completion", completion_tokens);
    a.num("llm.token_count.total", prompt_tokens + completion_tokens);
    a.str("input.value", req_.prompt);
    if (!n.error) a.str("output.value", output);
    set_attributes(n, std::move(a));
    return id;
  }

  void add_tool(int parent, const demo::Tool& tool, const std::string& parameters) {
    SpanNode& n = nodes_[add_leaf(parent, "tool:" + std::string(tool.name), "TOOL", 50, demo::tool_errors())];
    n.own_ms = rng_.between(tool.min_ms, tool.max_ms);
    set_attributes(n, JsonObject().str("tool.name", tool.name).str("tool.parameters", parameters));
  }

  void build_chat() {
    const int root = add(-1, "chat", "CHAIN");
    add_llm(root, 0, req_.answer);
  }

  void build_rag() {
    const int root = add(-1, "rag_pipeline", "CHAIN");
    const int documents = static_cast<int>(rng_.between(3, 8));
    const int retriever = add_leaf(root, "retrieve_documents", "RETRIEVER", 15, demo::retriever_errors());
    const bool retrieved = !nodes_[retriever].error;
    nodes_[retriever].own_ms = rng_.between(20, 400);
    set_attributes(nodes_[retriever],
                   JsonObject().str("input.value", req_.prompt).num("retrieval.documents", retrieved ? documents : 0));

    SpanNode& embed = nodes_[add(retriever, "embed", "EMBEDDING")];
    embed.own_ms = rng_.between(10, 120);
    set_attributes(embed,
                   JsonObject().str("embedding.model_name", "text-embedding-3-small").str("input.value", req_.prompt));
    if (!retrieved) return;  // nothing to rerank or answer from

    if (rng_.percent(50)) {
      SpanNode& rerank = nodes_[add(root, "rerank", "CHAIN")];
      rerank.own_ms = rng_.between(30, 250);
      set_attributes(rerank, JsonObject().str("reranker.model_name", "bge-reranker-v2-m3").num("reranker.top_k", 3));
    }
    add_llm(root, documents * static_cast<int>(rng_.between(180, 320)), req_.answer);
  }

  void build_agent() {
    const int root = add(-1, "agent.run", "AGENT");
    const int steps = static_cast<int>(rng_.between(2, 6));
    int history_tokens = 0;
    for (int step = 1; step <= steps; ++step) {
      const int step_node = add(root, "agent.step", "AGENT");
      nodes_[step_node].step = step;
      const auto& tool = rng_.pick(req_.domain->tools);
      const std::string parameters = JsonObject().str(tool.parameter, filler_.fill(tool.value_template)).done();
      const std::string decision = "I'll call " + std::string(tool.name) + " with " + parameters + ".";
      const int llm = add_llm(step_node, history_tokens, decision);
      history_tokens += static_cast<int>(rng_.between(150, 400));
      if (!nodes_[llm].error) add_tool(step_node, tool, parameters);
    }
    add_llm(root, history_tokens, req_.answer);
  }

  // A failed child fails its parent, except that an agent run carries on after a
  // failed step (it retries or answers without that tool).
  void propagate_errors() {
    for (int i = static_cast<int>(nodes_.size()) - 1; i > 0; --i) {
      SpanNode& child = nodes_[i];
      SpanNode& parent = nodes_[child.parent];
      if (!child.error || parent.error) continue;
      if (child.name == "agent.step") continue;
      parent.error = true;
      parent.error_message = child.error_message;
    }
  }

  void describe_inner_nodes() {
    SpanNode& root = nodes_[0];
    JsonObject a;
    a.str("input.value", req_.prompt);
    if (!root.error) a.str("output.value", req_.answer);
    set_attributes(root, std::move(a));
    for (auto& n : nodes_)
      if (n.name == "agent.step") set_attributes(n, JsonObject().num("agent.step", n.step));
  }

  Millis layout(int index, Millis start) {
    nodes_[index].start = start;
    Millis cursor = start;
    bool has_children = false;
    for (int c = index + 1; c < static_cast<int>(nodes_.size()); ++c) {
      if (nodes_[c].parent != index) continue;
      has_children = true;
      cursor = layout(c, cursor + rng_.between(1, 25));  // the parent's own work between children
    }
    nodes_[index].end = has_children ? cursor + rng_.between(1, 15) : start + nodes_[index].own_ms;
    return nodes_[index].end;
  }

  Rng& rng_;
  Filler& filler_;
  const TraceRequest& req_;
  std::vector<SpanNode> nodes_;
};

// ---- SQLite plumbing -------------------------------------------------------

// Runs statements; the first failure sticks and later calls do nothing, so the
// generators read top to bottom and the error is checked once at the end.
class Writer {
 public:
  explicit Writer(sqlite3* db) : db_(db) {}

  void exec(const char* sql) {
    if (ok() && sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (ok() && sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) fail(sql);
    statements_.emplace_back(s);
    return s;
  }
  template <typename... Values>
  void insert(sqlite3_stmt* s, const Values&... values) {
    if (!ok()) return;
    int i = 0;
    (bind(s, ++i, values), ...);
    if (sqlite3_step(s) != SQLITE_DONE) fail(sqlite3_sql(s));
    sqlite3_reset(s);
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  void fail(const char* sql) {
    error_ = std::string(sqlite3_errmsg(db_)) + " (while running: " + std::string(sql).substr(0, 60) + ")";
  }
  void bind(sqlite3_stmt* s, int i, std::int64_t v) { sqlite3_bind_int64(s, i, v); }
  void bind(sqlite3_stmt* s, int i, int v) { sqlite3_bind_int64(s, i, v); }
  void bind(sqlite3_stmt* s, int i, double v) { sqlite3_bind_double(s, i, v); }
  void bind(sqlite3_stmt* s, int i, std::string_view v) {
    sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void bind(sqlite3_stmt* s, int i, const std::string& v) { bind(s, i, std::string_view(v)); }
  void bind(sqlite3_stmt* s, int i, const char* v) { bind(s, i, std::string_view(v)); }
  void bind(sqlite3_stmt* s, int i, std::nullopt_t) { sqlite3_bind_null(s, i); }
  template <typename T>
  void bind(sqlite3_stmt* s, int i, const std::optional<T>& v) {
    v ? bind(s, i, *v) : bind(s, i, std::nullopt);
  }

  sqlite3* db_;
  std::vector<sqlite::StmtHandle> statements_;
  std::string error_;
};

// ---- schema ----------------------------------------------------------------

constexpr const char* kSchema = R"sql(
CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  key_prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE traces (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id),
  trace_id TEXT NOT NULL UNIQUE,
  session_id TEXT,
  user_id INTEGER REFERENCES users(id),
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL,
  status TEXT NOT NULL
);
CREATE TABLE spans (
  id INTEGER PRIMARY KEY,
  trace_id TEXT NOT NULL REFERENCES traces(trace_id),
  parent_id INTEGER REFERENCES spans(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL,
  cost_usd REAL,
  attributes TEXT NOT NULL
);
CREATE TABLE span_annotations (
  id INTEGER PRIMARY KEY,
  span_id INTEGER NOT NULL REFERENCES spans(id),
  annotator_kind TEXT NOT NULL,
  label TEXT,
  score REAL,
  explanation TEXT,
  created_at TEXT NOT NULL
);
)sql";

// Built after the rows are in: one sort per index instead of 60 000 inserts into each.
constexpr const char* kIndexes = R"sql(
CREATE INDEX idx_spans_trace_id ON spans(trace_id);
CREATE INDEX idx_spans_start_time ON spans(start_time);
CREATE INDEX idx_spans_parent_id ON spans(parent_id);
CREATE INDEX idx_traces_project_id ON traces(project_id);
CREATE INDEX idx_traces_start_time ON traces(start_time);
CREATE INDEX idx_span_annotations_span_id ON span_annotations(span_id);
)sql";

// ---- generators ------------------------------------------------------------

constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void write_projects(Writer& w) {
  sqlite3_stmt* s = w.prepare("INSERT INTO projects(id, name, created_at) VALUES (?, ?, ?)");
  const Millis first = epoch_ms(std::chrono::year{2026} / 6 / 1);
  int id = 0;
  for (const auto& d : demo::domains()) {
    w.insert(s, id + 1, d.project, iso8601(first + id * 9 * kDay + (9 + id) * kHour + id * 7 * kMinute));
    ++id;
  }
}

// Returns each user's creation time (index = id - 1); API keys come after it.
std::vector<Millis> write_users(Writer& w, Rng& rng) {
  sqlite3_stmt* s = w.prepare("INSERT INTO users(id, email, password_hash, created_at) VALUES (?, ?, ?, ?)");
  const auto first = demo::first_names(), last = demo::last_names();
  std::vector<Millis> created;
  for (int i = 0; i < kUsers; ++i) {
    // (i mod 20, i / 20) is unique for the first 20 × 10 users.
    const std::string email = std::string(first[i % first.size()]) + "." +
                              std::string(last[(i / first.size()) % last.size()]) + "@example.com";
    const std::string salt = rng.chars(kBase64, 22);
    const std::string digest = rng.chars(kBase64, 43);
    const std::string hash = "$argon2id$v=19$m=65536,t=3,p=4$" + salt + "$" + digest;
    const Millis days_before = rng.between(1, 400) * kDay;
    created.push_back(kWindowStart - days_before + rng.between(0, kDay - 1));
    w.insert(s, i + 1, email, hash, iso8601(created.back()));
  }
  return created;
}

void write_api_keys(Writer& w, Rng& rng, const std::vector<Millis>& user_created) {
  sqlite3_stmt* s =
      w.prepare("INSERT INTO api_keys(id, user_id, key_prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)");
  for (int i = 1; i <= kApiKeys; ++i) {
    const int user = static_cast<int>(rng.between(1, kUsers));
    const Millis at = std::min(user_created[user - 1] + rng.between(kHour, 120 * kDay), kWindowEnd - kDay);
    const std::string prefix = "qg_live_" + rng.chars("abcdefghijklmnopqrstuvwxyz0123456789", 6);
    w.insert(s, i, user, prefix, rng.hex(64), iso8601(at));
  }
}

// A trace before it is built: who asked what, where and when.
struct PlannedTrace {
  Millis start;
  int domain;
  std::optional<int> user_id;
  std::optional<std::string> session_id;
};

// Traffic is busiest in UTC afternoons, lighter at weekends, and grows over the
// window, so per-hour and per-day queries have something to find.
constexpr int kHourWeight[24] = {2, 1, 1, 1, 1, 2, 3, 5, 7, 9, 10, 11, 12, 13, 14, 14, 13, 11, 9, 7, 6, 5, 4, 3};

Millis draw_session_start(Rng& rng) {
  for (;;) {
    const int day = static_cast<int>(rng.between(0, kWindowDays - 1));
    const Millis midnight = kWindowStart + day * kDay;
    const std::chrono::weekday wd{std::chrono::sys_days{std::chrono::days{midnight / kDay}}};
    const bool weekend = wd == std::chrono::Saturday || wd == std::chrono::Sunday;
    if (!rng.percent(60 + 40 * day / kWindowDays - (weekend ? 45 : 0))) continue;
    const auto hour = rng.weighted(std::span<const int>(kHourWeight), [](int w) { return w; });
    return midnight + static_cast<Millis>(hour) * kHour + rng.between(0, kHour - 1);
  }
}

// Sessions of 1–5 traces a few minutes apart; 8 % of traffic is anonymous API
// calls with neither user nor session. Sorted by start so ids follow time.
std::vector<PlannedTrace> plan_traces(Rng& rng) {
  std::vector<PlannedTrace> plan;
  while (plan.size() < kTraces) {
    const int domain =
        static_cast<int>(rng.weighted(demo::domains(), [](const demo::Domain& d) { return d.traffic_weight; }));
    Millis at = draw_session_start(rng);
    if (rng.percent(8)) {
      plan.push_back({std::min(at, kLastTraceStart), domain, std::nullopt, std::nullopt});
      continue;
    }
    // Low ids are the power users: the smaller of two draws.
    const auto draw = rng.between(1, kUsers);
    const int user = static_cast<int>(std::min(draw, rng.between(1, kUsers)));
    const std::string session = "sess_" + rng.hex(16);
    for (auto n = rng.between(1, 5); n > 0 && plan.size() < kTraces; --n) {
      plan.push_back({std::min(at, kLastTraceStart), domain, user, session});
      at += rng.between(45 * kSecond, 10 * kMinute);
    }
  }
  std::sort(plan.begin(), plan.end(), [](const PlannedTrace& a, const PlannedTrace& b) {
    return std::tie(a.start, a.domain, a.session_id) < std::tie(b.start, b.domain, b.session_id);
  });
  return plan;
}

enum class Quality { Good, Incorrect, Hallucination };

class TraceWriter {
 public:
  // `injections`: plant prompt-injection text (real traffic) or not (internal tests).
  TraceWriter(Writer& w, Rng& rng, bool injections = true) : w_(w), rng_(rng), injections_(injections) {
    traces_ = w.prepare(
        "INSERT INTO traces(id, project_id, trace_id, session_id, user_id, start_time, end_time, status) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    spans_ = w.prepare(
        "INSERT INTO spans(id, trace_id, parent_id, name, kind, status, start_time, end_time, cost_usd, "
        "attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    annotations_ = w.prepare(
        "INSERT INTO span_annotations(id, span_id, annotator_kind, label, score, explanation, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)");
  }

  // Carries on numbering spans and annotations after `before`'s last ones.
  void continue_after(const TraceWriter& before) {
    next_span_id_ = before.next_span_id_;
    next_annotation_id_ = before.next_annotation_id_;
  }

  // Trace number `index` of this writer (0-based), stored with row id `id` in project `project_id`.
  void write(std::int64_t id, int index, int project_id, const demo::Domain& domain, const PlannedTrace& p) {
    Filler filler(rng_);
    const auto& model_choice = domain.models[rng_.weighted(domain.models, [](const auto& m) { return m.weight; })];
    const demo::Exchange& exchange = rng_.pick(domain.exchanges);
    TraceRequest req{&domain, filler.fill(exchange.prompt), {}, &demo::model_named(model_choice.model)};
    const bool injected = injections_ && index % kInjectionEvery == kInjectionOffset;
    if (injected) {
      const auto injection = demo::injections()[(index / kInjectionEvery) % demo::injections().size()];
      // Alternate where the sentence sits: appended, or smuggled in front.
      req.prompt = (index / kInjectionEvery) % 2 ? std::string(injection) + " " + req.prompt
                                                 : req.prompt + "\n\n" + std::string(injection);
    }
    req.answer = injected ? std::string(rng_.pick(demo::refusals())) : filler.fill(exchange.answer);

    std::vector<SpanNode> nodes = TraceBuilder(rng_, filler, req).build();
    const Millis start = p.start, duration = nodes[0].end;
    const std::string trace_id = rng_.hex(32);
    const SpanNode& root = nodes[0];
    w_.insert(traces_, id, project_id, trace_id, p.session_id, p.user_id, iso8601(start), iso8601(start + duration),
              root.error ? "ERROR" : "OK");

    const std::int64_t first_id = next_span_id_;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const SpanNode& n = nodes[i];
      const auto parent = n.parent < 0 ? std::nullopt : std::optional<std::int64_t>(first_id + n.parent);
      w_.insert(spans_, next_span_id_++, trace_id, parent, n.name, n.kind, status_of(n, i == 0),
                iso8601(start + n.start), iso8601(start + n.end), n.cost_usd, n.attributes);
    }
    annotate(nodes, first_id, start, injected);
  }

 private:
  // Instrumentations set OK on calls they complete (LLM, tool, retriever) and on
  // the root; intermediate steps stay UNSET, as in OpenTelemetry.
  static std::string_view status_of(const SpanNode& n, bool is_root) {
    if (n.error) return "ERROR";
    if (is_root || n.kind == "LLM" || n.kind == "TOOL" || n.kind == "RETRIEVER") return "OK";
    return "UNSET";
  }

  // ~29 % of answers get an LLM-judge verdict, ~9.5 % of traces a human rating.
  void annotate(const std::vector<SpanNode>& nodes, std::int64_t first_id, Millis start, bool injected) {
    const int roll = static_cast<int>(rng_.between(0, 99));
    const Quality quality = injected || roll < 75 ? Quality::Good
                            : roll < 93           ? Quality::Incorrect
                                                  : Quality::Hallucination;
    int final_llm = -1;
    for (int i = static_cast<int>(nodes.size()) - 1; i >= 0 && final_llm < 0; --i)
      if (nodes[i].kind == "LLM") final_llm = i;

    if (rng_.permille(290) && final_llm >= 0 && !nodes[final_llm].error) {
      const SpanNode& n = nodes[final_llm];
      const auto [label, lo, hi, texts] =
          quality == Quality::Good        ? std::tuple{"correct", 70, 100, demo::judge_correct()}
          : quality == Quality::Incorrect ? std::tuple{"incorrect", 5, 45, demo::judge_incorrect()}
                                          : std::tuple{"hallucination", 0, 30, demo::judge_hallucination()};
      const double score = static_cast<double>(rng_.between(lo, hi)) / 100.0;  // two exact decimals
      const std::string explanation(rng_.pick(texts));
      add_annotation(first_id + final_llm, "LLM", label, score, explanation,
                     start + n.end + rng_.between(kMinute, 2 * kHour));
    }
    if (rng_.permille(95)) {
      const bool good = quality == Quality::Good && !nodes[0].error;
      std::optional<std::string> comment;
      if (rng_.percent(75)) {
        comment = std::string(rng_.pick(good ? demo::positive_feedback() : demo::negative_feedback()));
        if (injections_ && ++human_comments_ % kFeedbackInjectionEvery == 0)
          *comment +=
              " " +
              std::string(demo::injections()[human_comments_ / kFeedbackInjectionEvery % demo::injections().size()]);
      }
      const bool thumbs = rng_.percent(85);  // some people only leave a comment
      add_annotation(first_id, "HUMAN",
                     thumbs ? std::optional<std::string>(good ? "helpful" : "not_helpful") : std::nullopt,
                     thumbs ? std::optional<double>(good ? 1.0 : 0.0) : std::nullopt, comment,
                     start + nodes[0].end + rng_.between(10 * kSecond, 3 * kDay));
    }
  }

  void add_annotation(std::int64_t span_id, std::string_view kind, std::optional<std::string> label,
                      std::optional<double> score, std::optional<std::string> explanation, Millis at) {
    w_.insert(annotations_, next_annotation_id_++, span_id, kind, label, score, explanation,
              iso8601(std::min(at, kWindowEnd)));
  }

  Writer& w_;
  Rng& rng_;
  sqlite3_stmt* traces_;
  sqlite3_stmt* spans_;
  sqlite3_stmt* annotations_;
  bool injections_;
  std::int64_t next_span_id_ = 1;
  std::int64_t next_annotation_id_ = 1;
  int human_comments_ = 0;
};

// ---- internal-tests --------------------------------------------------------

// The team's own CI traffic, in a sixth project that the demo configuration
// hides with row filters (an analysis of real traffic must not count it). Its
// rows come after every other row (ids carry on) and from their own random
// stream: adding it left every row of the other projects byte-identical.
constexpr std::uint64_t kInternalSeed = 0x5157'4741'5445'0101ULL;  // change = new internal-tests rows
constexpr int kInternalProjectId = 6;
constexpr int kEvalCasesPerNight = 12;
constexpr int kLoadTestTraces = 40;

void write_internal_project(Writer& w) {
  sqlite3_stmt* s = w.prepare("INSERT INTO projects(id, name, created_at) VALUES (?, ?, ?)");
  w.insert(s, kInternalProjectId, demo::internal_tests().project,
           iso8601(epoch_ms(std::chrono::year{2026} / 8 / 3) + 8 * kHour + 30 * kMinute));
}

// Every night at about 02:00 UTC an evaluation run (one session, a case every
// 1-3 minutes); every Wednesday afternoon a load test (a burst of traces a few
// seconds apart, no session). No end user: user_id is NULL. Sorted by start.
std::vector<PlannedTrace> plan_internal_tests(Rng& rng) {
  std::vector<PlannedTrace> plan;
  for (int day = 0; day < kWindowDays; ++day) {
    const Millis midnight = kWindowStart + day * kDay;
    Millis at = midnight + 2 * kHour + rng.between(0, 5 * kMinute);
    const std::string session = "sess_" + rng.hex(16);
    for (int i = 0; i < kEvalCasesPerNight; ++i) {
      plan.push_back({at, 0, std::nullopt, session});
      at += rng.between(kMinute, 3 * kMinute);
    }
    const std::chrono::weekday wd{std::chrono::sys_days{std::chrono::days{midnight / kDay}}};
    if (wd != std::chrono::Wednesday) continue;
    at = midnight + 15 * kHour + rng.between(0, 30 * kMinute);
    for (int i = 0; i < kLoadTestTraces; ++i) {
      plan.push_back({at, 0, std::nullopt, std::nullopt});
      at += rng.between(2 * kSecond, 20 * kSecond);
    }
  }
  std::sort(plan.begin(), plan.end(), [](const PlannedTrace& a, const PlannedTrace& b) { return a.start < b.start; });
  return plan;
}

// Fills an open, empty database. Returns the Writer's error text, empty on success.
std::string generate(sqlite3* db) {
  Writer w(db);
  // The file is private until renamed into place, so no rollback journal is
  // needed while building; a failure discards the whole file.
  w.exec("PRAGMA journal_mode=OFF; PRAGMA user_version=1;");
  w.exec("BEGIN");
  w.exec(kSchema);
  Rng rng(kSeed);
  write_projects(w);
  const auto user_created = write_users(w, rng);
  write_api_keys(w, rng, user_created);
  TraceWriter traces(w, rng);
  const auto plan = plan_traces(rng);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const int index = static_cast<int>(i);
    traces.write(index + 1, index, plan[i].domain + 1, demo::domains()[plan[i].domain], plan[i]);
  }
  // After every other row, from its own stream (see kInternalSeed).
  Rng internal_rng(kInternalSeed);
  write_internal_project(w);
  TraceWriter internal(w, internal_rng, /*injections=*/false);
  internal.continue_after(traces);
  const auto internal_plan = plan_internal_tests(internal_rng);
  for (std::size_t i = 0; i < internal_plan.size(); ++i) {
    const int index = static_cast<int>(i);
    internal.write(kTraces + index + 1, index, kInternalProjectId, demo::internal_tests(), internal_plan[i]);
  }
  w.exec(kIndexes);
  w.exec("ANALYZE");  // sqlite_stat1 gives the gateway row-count estimates
  w.exec("COMMIT");
  // Rollback-journal (DELETE) mode, not WAL: the gateway opens the file with
  // SQLITE_OPEN_READONLY and nobody writes, so concurrent readers need nothing
  // more, and a read-only WAL database would need -wal/-shm files it may not be
  // able to create.
  w.exec("PRAGMA journal_mode=DELETE");
  return w.error();
}

Error failure(const fs::path& path, const std::string& what) {
  return make_error(ErrorCode::BackendError, "cannot create the demo database '" + path.string() + "': " + what,
                    "choose a path in an existing, writable folder");
}

// Removes `file` if present; a missing file is fine.
bool remove_if_present(const fs::path& file, std::string& why) {
  std::error_code ec;
  fs::remove(file, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    why = "cannot remove '" + file.string() + "': " + ec.message();
    return false;
  }
  return true;
}

fs::path with_suffix(const fs::path& p, std::string_view suffix) {
  return fs::path(p.string() + std::string(suffix));
}

}  // namespace

Status create_demo_db(const fs::path& path) {
  const fs::path tmp = with_suffix(path, ".tmp");
  std::string why;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"})
    if (!remove_if_present(with_suffix(tmp, suffix), why)) return failure(path, why);

  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(tmp.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  sqlite::DbHandle db(raw);
  if (rc != SQLITE_OK) return failure(path, "cannot open '" + tmp.string() + "': " + sqlite3_errstr(rc));

  why = generate(db.get());
  const int close_rc = sqlite3_close(db.release());
  if (why.empty() && close_rc != SQLITE_OK) why = std::string("closing failed: ") + sqlite3_errstr(close_rc);
  std::string ignored;
  if (!why.empty()) {
    remove_if_present(tmp, ignored);
    return failure(path, why);
  }

  // The old database's sidecar files would be read as belonging to the new one.
  for (const char* suffix : {"-journal", "-wal", "-shm"})
    if (!remove_if_present(with_suffix(path, suffix), why)) return failure(path, why);
  std::error_code ec;
  fs::rename(tmp, path, ec);  // atomically replaces an existing file
  if (ec) {
    remove_if_present(tmp, ignored);
    return failure(path, "cannot rename '" + tmp.string() + "' into place: " + ec.message());
  }
  return {};
}

}  // namespace qg::exec
