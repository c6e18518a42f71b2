#pragma once
#include "common/json_string.hpp"
// The text of the demo database (demo_db.cpp): word lists and templates, and
// the small deterministic primitives that turn them into column values (PRNG,
// slot filling, JSON text, timestamps). Kept apart so the generator reads as
// structure and this file reads as data. Every list is fixed and every draw
// comes from the seeded Rng, so the database is the same on every run.
//
// Templates use `{slot}` placeholders filled from slots(); a brace group that is
// not a slot name (e.g. code in a prompt) is left as written.
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qg::exec::demo {

// Prices are public list prices in nano-USD per token (= USD per million tokens
// × 1000), integers so a span's cost is exact integer arithmetic followed by one
// correctly rounded division: no FMA contraction can change a digit on another
// platform. The speed makes LLM span durations follow completion length.
struct Model {
  std::string_view name;
  std::string_view provider;
  std::int64_t nano_usd_per_prompt_token;
  std::int64_t nano_usd_per_completion_token;
  int ms_per_completion_token;
};

struct ModelChoice {
  std::string_view model;  // a Model::name
  int weight;
};

// A tool an agent can call: one parameter whose value is a filled template.
struct Tool {
  std::string_view name;
  std::string_view parameter;
  std::string_view value_template;
  int min_ms, max_ms;  // how long a call takes
};

// Relative weights of the three trace shapes a project produces.
struct ShapeMix {
  int chat;   // CHAIN → LLM
  int rag;    // CHAIN → RETRIEVER(→EMBEDDING) → [rerank] → LLM
  int agent;  // AGENT → n × (agent.step → LLM [+ TOOL]) → LLM
};

// A user prompt template and the answer template that goes with it.
struct Exchange {
  std::string_view prompt;
  std::string_view answer;
};

// One demo project: what its users ask, what it answers, which tools and models
// it uses.
struct Domain {
  std::string_view project;
  int traffic_weight;
  ShapeMix shapes;
  int system_prompt_tokens;
  std::span<const ModelChoice> models;
  std::span<const Tool> tools;
  std::span<const Exchange> exchanges;
};

struct Slot {
  std::string_view name;
  std::span<const std::string_view> values;
};

std::span<const Model> models();
const Model& model_named(std::string_view name);  // every ModelChoice names one
std::span<const Domain> domains();
// The project `internal-tests` (CI evaluations and load tests): not one of
// domains(), so generating it draws nothing from their random stream.
const Domain& internal_tests();
std::span<const Slot> slots();

// Prompt-injection sentences planted in ~1 % of prompts and in some feedback.
std::span<const std::string_view> injections();
// What a model answers when the prompt carries an injection.
std::span<const std::string_view> refusals();

// Error messages recorded on failed spans, by span kind.
std::span<const std::string_view> llm_errors();
std::span<const std::string_view> tool_errors();
std::span<const std::string_view> retriever_errors();

// End-user feedback (span_annotations.explanation written by humans).
std::span<const std::string_view> positive_feedback();
std::span<const std::string_view> negative_feedback();
// Explanations an LLM judge writes, by verdict.
std::span<const std::string_view> judge_correct();
std::span<const std::string_view> judge_incorrect();
std::span<const std::string_view> judge_hallucination();

// Names for fake user accounts (users.email).
std::span<const std::string_view> first_names();
std::span<const std::string_view> last_names();

// ---- deterministic primitives ----------------------------------------------

// splitmix64, with our own range mapping: std:: distributions are
// implementation-defined, so they would make the data differ between standard
// libraries. Modulo bias (n / 2^64) is irrelevant for demo data.
// Callers draw at most once per full expression: the order in which function
// arguments or operands are evaluated is unspecified, and with it the data.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::int64_t between(std::int64_t lo, std::int64_t hi) {  // inclusive
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool percent(int p) { return between(0, 99) < p; }
  bool permille(int p) { return between(0, 999) < p; }
  template <typename T>
  const T& pick(std::span<const T> items) {
    return items[static_cast<std::size_t>(between(0, std::ssize(items) - 1))];
  }
  // Index drawn with probability proportional to weight_of(item).
  template <typename T, typename F>
  std::size_t weighted(std::span<const T> items, F weight_of) {
    std::int64_t total = 0;
    for (const auto& item : items) total += weight_of(item);
    std::int64_t r = between(0, total - 1);
    for (std::size_t i = 0; i < items.size(); ++i)
      if ((r -= weight_of(items[i])) < 0) return i;
    return items.size() - 1;
  }
  std::string chars(std::string_view alphabet, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += alphabet[static_cast<std::size_t>(between(0, std::ssize(alphabet) - 1))];
    return out;
  }
  std::string hex(int n) { return chars("0123456789abcdef", n); }

 private:
  std::uint64_t state_;
};

// Fills `{slot}` placeholders. A slot keeps its first value for the whole trace,
// so the answer names the same city or order as the prompt; "city2" never
// repeats "city".
class Filler {
 public:
  explicit Filler(Rng& rng) : rng_(rng) {}
  std::string fill(std::string_view tmpl);

 private:
  std::optional<std::string_view> slot_value(std::string_view name);

  Rng& rng_;
  std::vector<std::pair<std::string_view, std::string_view>> bound_;
};

// A flat JSON object written in insertion order (span attributes are flat, as
// OpenInference writes them: dotted keys, scalar values).
class JsonObject {
 public:
  JsonObject& str(std::string_view key, std::string_view value) {
    add_key(key);
    qg::append_json_string(text_, value);
    return *this;
  }
  JsonObject& num(std::string_view key, std::int64_t value) {
    add_key(key);
    text_ += std::to_string(value);
    return *this;
  }
  std::string done() { return std::move(text_) + '}'; }

 private:
  void add_key(std::string_view key) {
    if (text_.size() > 1) text_ += ", ";
    qg::append_json_string(text_, key);
    text_ += ": ";
  }
  std::string text_ = "{";
};

// Milliseconds since the Unix epoch as fixed-width ISO-8601 with millisecond
// precision and an explicit UTC offset ("2026-10-05T14:03:27.512+00:00"), so
// lexical order is time order and every consumer reads the same instant.
std::string iso8601(std::int64_t epoch_ms);

}  // namespace qg::exec::demo
