#pragma once
// The success envelope: only what varies between calls. Facts that never
// change (read-only, limits, dialect rules) live in the schema description.
#include <string>
#include <string_view>

#include "admission/pipeline.hpp"
#include "config/config.hpp"
#include "executors/executor.hpp"

namespace qg::gateway {

// What one answer amounted to, as the caller sees it.
struct EnvelopeFacts {
  std::size_t rows_written = 0;
  std::string truncated_by;  // "rows" (the row cap), "bytes" (the response byte cap), or empty
  bool cells_cut = false;    // some value was cut to max_cell_bytes
  std::size_t untrusted_rows = 0;
};

struct EnvelopeInput {
  std::string_view caller_sql;
  const AdmittedStatement* statement = nullptr;
  const exec::Rows* rows = nullptr;  // for validate_only: columns only
  const config::Limits* limits = nullptr;
  const catalog::Catalog* catalog = nullptr;      // for notices that name real columns
  const config::HiddenColumns* hidden = nullptr;  // the caller's key's: notices never name them
  // Non-empty: untrusted text values are wrapped in <<untrusted:MARKER>>...<</untrusted:MARKER>>.
  std::string spotlight_marker;
  // When set, build_envelope says here what it cut and flagged (for metrics).
  EnvelopeFacts* facts = nullptr;
  // validate_only: the statement was checked and prepared, not run. The answer
  // says "validated": true and has no `rows` or `row_count`, so it cannot be
  // read as an empty result.
  bool validated = false;
  // Notes found while it ran (a time window past the data: time_window_notes.hpp), after admission's.
  std::vector<std::string> run_notes;
};

// A fresh random marker for one response (hex), so injected text cannot guess it.
std::string new_spotlight_marker();

// Builds the JSON body. Applies the row cap (drops the limit+1 probe row), the
// per-cell and per-response byte caps, and float rounding.
std::string build_envelope(const EnvelopeInput& in);

}  // namespace qg::gateway
