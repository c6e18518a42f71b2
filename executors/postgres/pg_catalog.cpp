#include "executors/postgres/pg_catalog.hpp"

#include <pqxx/pqxx>

#include "executors/executor_errors.hpp"
#include "executors/postgres/pg_values.hpp"

namespace qg::exec::pg {
namespace {

struct Relation {
  std::string oid;
  std::string name;
  std::string kind;  // pg_class.relkind
  double reltuples = -1;
  std::string comment;
};

// Config names match the engine's spelling exactly, or, when exactly one name
// differs only in case, that one: PostgreSQL folds unquoted names to lower
// case, and an operator who writes `Album` for the table `album` means it.
template <typename T, typename NameOf>
const T* match(const std::vector<T>& items, const std::string& wanted, NameOf name_of) {
  for (const auto& item : items)
    if (name_of(item) == wanted) return &item;
  const T* found = nullptr;
  for (const auto& item : items)
    if (catalog::Catalog::same_name(name_of(item), wanted, Dialect::Sqlite)) {  // ASCII case-insensitive
      if (found != nullptr) return nullptr;
      found = &item;
    }
  return found;
}

bool temporal(unsigned type_oid) {
  return type_oid == oid::kTimestamp || type_oid == oid::kTimestamptz || type_oid == oid::kDate;
}

}  // namespace

std::string field_text(const pqxx::field& f) {
  return f.is_null() ? std::string() : std::string(f.c_str(), f.size());
}

Result<catalog::Catalog> introspect(pqxx::connection& conn, const config::Database& config) {
  catalog::Catalog result;
  result.dialect = Dialect::Postgres;
  result.schema = config.schema;
  pqxx::nontransaction tx(conn);

  std::vector<Relation> relations;
  for (const auto& row : tx.exec_params(
           "SELECT c.oid::text, c.relname, c.relkind::text, c.reltuples::float8, obj_description(c.oid, 'pg_class') "
           "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
           "WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f') ORDER BY c.relname",
           config.schema))
    relations.push_back(
        {field_text(row[0]), field_text(row[1]), field_text(row[2]), row[3].as<double>(-1), field_text(row[4])});
  std::vector<std::string> existing;
  for (const auto& r : relations) existing.push_back(r.name);

  for (const auto& curation : config.tables) {
    const Relation* rel = match(relations, curation.name, [](const Relation& r) { return r.name; });
    if (rel == nullptr)
      return make_error(
          ErrorCode::BackendUnavailable,
          "allowlisted table '" + curation.name + "' of database '" + config.name + "' does not exist in schema '" +
              config.schema + "'" + name_suggestion(curation.name, existing),
          "FIX: correct the name under databases." + config.name + ".tables in the configuration, or set databases." +
              config.name + ".schema to the schema that holds it");
    catalog::Table table;
    table.name = rel->name;
    table.comment = curation.comment;
    table.engine_comment = rel->comment;
    // reltuples is -1 before the first VACUUM/ANALYZE: unknown, not empty.
    if (rel->reltuples >= 0) table.row_estimate = static_cast<long long>(rel->reltuples);

    for (const auto& row : tx.exec_params(
             "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
             "EXISTS (SELECT 1 FROM pg_catalog.pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary "
             "AND a.attnum = ANY (i.indkey)), col_description(a.attrelid, a.attnum), a.atttypid::int8 "
             "FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped "
             "ORDER BY a.attnum",
             rel->oid)) {
      catalog::Column c;
      c.name = field_text(row[0]);
      c.type = field_text(row[1]);
      c.not_null = row[2].as<bool>(false);
      c.primary_key = row[3].as<bool>(false);
      c.engine_comment = field_text(row[4]);
      const auto type_oid = static_cast<unsigned>(row[5].as<long long>(0));
      c.timestamp = temporal(type_oid);
      // A timestamp without time zone is naive: literals with an offset are
      // converted to UTC in this (the session's ISO, UTC) format, because
      // PostgreSQL would otherwise drop their offset. See rewrite/time_literals.
      if (type_oid == oid::kTimestamp) c.timestamp_sample = "2000-01-01 00:00:00.000000";
      table.columns.push_back(std::move(c));
    }
    for (const auto& row : tx.exec_params("SELECT pg_get_indexdef(i.indexrelid) FROM pg_catalog.pg_index i "
                                          "JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid "
                                          "WHERE i.indrelid = $1::oid ORDER BY c.relname",
                                          rel->oid))
      table.indexes.push_back(field_text(row[0]));

    for (const auto& [column_name, column_curation] : curation.columns) {
      const catalog::Column* found = match(table.columns, column_name, [](const catalog::Column& c) { return c.name; });
      if (found == nullptr) {
        std::vector<std::string> names;
        for (const auto& c : table.columns) names.push_back(c.name);
        return make_error(ErrorCode::BackendUnavailable,
                          "curated column '" + column_name + "' does not exist in table '" + table.name +
                              "' of database '" + config.name + "'" + name_suggestion(column_name, names),
                          "FIX: correct databases." + config.name + ".tables." + curation.name + ".columns." +
                              column_name + " in the configuration");
      }
      auto& column = const_cast<catalog::Column&>(*found);
      column.curated = true;
      column.comment = column_curation.comment;
      column.unit = column_curation.unit;
      column.hidden = column_curation.hidden;
      column.companions = column_curation.companions;
      column.float_digits = column_curation.float_digits;
      column.untrusted = column_curation.untrusted;
      column.timestamp = column.timestamp || column_curation.timestamp;
    }
    result.tables.push_back(std::move(table));
  }
  return result;
}

}  // namespace qg::exec::pg
