#pragma once
// The readers of the config file's sections, one file each (limits_section.cpp,
// databases_section.cpp, tables_section.cpp, api_keys_section.cpp); config.cpp
// reads the top level and calls them. Not part of the public interface.
#include <filesystem>
#include <vector>

#include "common/dialect.hpp"
#include "common/result.hpp"
#include "config/config.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

// limits.*, with the cross-field check default_rows <= max_rows.
Status read_limits(const Entry& entry, Limits& limits);

// databases.<name>.*: the backend first, then its keys; postgres needs exactly one of dsn / dsn_env.
Status read_databases(const Entry& entry, const OwnKey& key, const std::filesystem::path& base_dir,
                      std::vector<Database>& databases);

// databases.<name>.tables.<table>.*, with its columns and virtual columns.
Status read_tables(const Entry& entry, const OwnKey& key, Dialect backend, std::vector<TableCuration>& tables);

// <...>.parameters: typed parameters of a configured statement (tools, write tools), in file order,
// each checked by tools::check_spec, then together by tools::check_specs. The one reader for every
// `parameters:` mapping. `for_writes`: the write tools' extras (references, untrusted) are allowed,
// and a string without max_length gets kWriteStringChars (config.hpp).
Status read_parameters(const Entry& entry, tools::Parameters& out, bool for_writes = false);

// tools.<name>.*: curated tools (a fixed statement on one database, with typed parameters).
Status read_tools(const Entry& entry, const OwnKey& key, std::vector<Tool>& tools);
// Tools name databases; databases may come later in the file, so this runs last.
Status check_tool_databases(const Config& config);

// keys: the API keys, each with a name, a SHA-256 and the databases it may use.
Status read_keys(const Entry& entry, const OwnKey& key, std::vector<ApiKey>& keys);
// Keys name databases; databases may come later in the file, so this runs last.
Status check_key_databases(const Config& config);

// writes.<tool>.*: the write tools (writes_section.cpp).
Status read_write_tools(const Entry& entry, const OwnKey& key, std::vector<WriteTool>& tools);
// Write tools name databases and keys name write tools; runs last.
Status check_write_tools(const Config& config);

}  // namespace qg::config::detail
