// databases.<name>.tables.<table>.*: the key tables for a table's curation, its
// columns and its virtual columns, and their readers (a virtual column needs an
// expression for the database's backend and may not shadow a curated column).
#include <string>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

// databases.<name>.tables.<table>.*
constexpr TextKey<TableCuration> kTableTexts[] = {
    {"comment", &TableCuration::comment, ""},
    {"row_filter", &TableCuration::row_filter, ""},  // admitted at start-up (gateway/startup.cpp)
    {"row_filter_note", &TableCuration::row_filter_note, ""},
};
constexpr OwnKey kTableOwn[] = {
    {"columns", "a mapping of column names to their curation ({} for none)"},
    {"virtual_columns", "a mapping of computed column names to {sqlite: expr, postgres: expr, comment: ...}"},
};
constexpr KeyTable<TableCuration> kTableKeys{.texts = kTableTexts, .own = kTableOwn};

// databases.<name>.tables.<table>.columns.<column>.*
constexpr BoolKey<ColumnCuration> kColumnBools[] = {
    {"untrusted", &ColumnCuration::untrusted, false},  // holds text written by end users
    {"timestamp", &ColumnCuration::timestamp, false},  // holds ISO-8601 timestamps
};
constexpr TextKey<ColumnCuration> kColumnTexts[] = {
    {"comment", &ColumnCuration::comment, ""},
    {"unit", &ColumnCuration::unit, ""},
};
constexpr KeyTable<ColumnCuration> kColumnKeys{.bools = kColumnBools, .texts = kColumnTexts};

// databases.<name>.tables.<table>.virtual_columns.<column>.*
constexpr BoolKey<VirtualColumn> kVirtualBools[] = {
    {"untrusted", &VirtualColumn::untrusted, false},
};
constexpr TextKey<VirtualColumn> kVirtualTexts[] = {
    {"sqlite", &VirtualColumn::sqlite, ""},      // required when the database's backend is sqlite (checked after)
    {"postgres", &VirtualColumn::postgres, ""},  // required when the backend is postgres
    {"comment", &VirtualColumn::comment, ""},
    {"unit", &VirtualColumn::unit, ""},
};
constexpr KeyTable<VirtualColumn> kVirtualKeys{.bools = kVirtualBools, .texts = kVirtualTexts};

Status read_columns(const Entry& entry, const OwnKey& key, TableCuration& table) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& column_entry) -> Status {
    ColumnCuration column;
    if (Status status = read_section(column_entry, kColumnKeys, std::nullopt, column, no_own_keys); !status)
      return status;
    table.columns.emplace_back(name, std::move(column));
    return {};
  });
}

Status read_virtual_columns(const Entry& entry, const OwnKey& key, Dialect backend, TableCuration& table) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& column_entry) -> Status {
    VirtualColumn column;
    if (Status status = read_section(column_entry, kVirtualKeys, std::nullopt, column, no_own_keys); !status)
      return status;
    const std::string& expression = backend == Dialect::Sqlite ? column.sqlite : column.postgres;
    if (expression.empty()) {
      const std::string path = child_path(column_entry.path, dialect_name(backend));
      return config_error("'" + path + "' is required: the database's backend is " +
                              std::string(dialect_name(backend)) + position_of(column_entry),
                          "Add " + std::string(dialect_name(backend)) + ": <SQL expression over the table's columns>.");
    }
    for (const auto& [existing, curation] : table.columns)
      if (existing == name)
        return config_error("'" + column_entry.path + "' names a curated physical column" + position_of(column_entry),
                            "Give the virtual column a name no physical column has.");
    table.virtual_columns.emplace_back(name, std::move(column));
    return {};
  });
}

}  // namespace

Status read_tables(const Entry& entry, const OwnKey& key, Dialect backend, std::vector<TableCuration>& tables) {
  return read_named(entry, key.expects, [&](const std::string& name, const Entry& table_entry) -> Status {
    TableCuration table;
    table.name = name;
    Status status = read_section(table_entry, kTableKeys, std::nullopt, table,
                                 [&](const OwnKey& own, const Entry& own_entry) -> Status {
                                   if (own.name == "columns") return read_columns(own_entry, own, table);
                                   if (own.name == "virtual_columns")
                                     return read_virtual_columns(own_entry, own, backend, table);
                                   return unhandled(own, own_entry);
                                 });
    if (!status) return status;
    tables.push_back(std::move(table));
    return {};
  });
}

}  // namespace qg::config::detail
