#include "dataset.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

namespace fidelity {
namespace {

qg::Error data_error(const std::string& what) {
  return qg::make_error(qg::ErrorCode::ConfigInvalid, what, "FIX: check that ../shared/data sits beside the clone");
}

std::string trim(std::string s) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

qg::Result<std::string> read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return data_error("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Appends the items of one JSON array file ({"query", "db_id"[, "note"]}); the
// DB of an item is db_dir / db_id / db_id.sqlite.
qg::Status append_items(const std::filesystem::path& file, const std::filesystem::path& db_dir, Dataset& out) {
  auto text = read_file(file);
  if (!text) return std::move(text).error();
  boost::system::error_code jec;
  const auto doc = boost::json::parse(*text, jec);
  if (jec || !doc.is_array()) return data_error(file.string() + " is not a JSON array");
  for (const auto& item : doc.as_array()) {
    const auto* obj = item.if_object();
    const auto* query = obj ? obj->if_contains("query") : nullptr;
    const auto* db = obj ? obj->if_contains("db_id") : nullptr;
    if (!query || !query->is_string() || !db || !db->is_string())
      return data_error(file.string() + ": an item without string \"query\" and \"db_id\"");
    GoldQuery q;
    q.index = static_cast<int>(out.queries.size()) + 1;
    q.sql = trim(std::string(query->as_string()));
    q.db_id = std::string(db->as_string());
    q.db_path = db_dir / q.db_id / (q.db_id + ".sqlite");
    if (const auto* note = obj->if_contains("note"); note && note->is_string()) q.note = note->as_string();
    out.queries.push_back(std::move(q));
  }
  return {};
}

}  // namespace

qg::Result<Dataset> load_spider(const std::filesystem::path& dir, const std::string& split) {
  auto text = read_file(dir / (split + "_gold.sql"));
  if (!text) return std::move(text).error();
  Dataset out{"spider-" + split, {}};
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    if (trim(line).empty()) continue;
    // db_id is after the last tab: the SQL itself never holds one in this file, but be safe.
    const auto tab = line.rfind('\t');
    if (tab == std::string::npos) return data_error(split + "_gold.sql: a line without a tab: " + line);
    GoldQuery q;
    q.index = static_cast<int>(out.queries.size()) + 1;
    q.sql = trim(line.substr(0, tab));
    q.db_id = trim(line.substr(tab + 1));
    q.db_path = dir / "database" / q.db_id / (q.db_id + ".sqlite");
    out.queries.push_back(std::move(q));
  }
  return out;
}

qg::Result<Dataset> load_kaggledbqa(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "examples", ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  if (ec) return data_error("cannot list " + (dir / "examples").string() + ": " + ec.message());
  std::sort(files.begin(), files.end());  // a stable order, so reports can cite #index

  Dataset out{"kaggledbqa", {}};
  for (const auto& file : files)
    if (auto s = append_items(file, dir / "databases", out); !s) return std::move(s).error();
  return out;
}

qg::Result<Dataset> load_probes(const std::filesystem::path& file, const std::filesystem::path& spider_dir) {
  Dataset out{"probes/" + file.stem().string(), {}};
  if (auto s = append_items(file, spider_dir / "database", out); !s) return std::move(s).error();
  return out;
}

}  // namespace fidelity
