#include "common/error_code.hpp"

#include <array>
#include <cassert>

namespace qg {
namespace {

using enum ErrorCode;

// Order must follow the enum; a unit test checks that every enumerator has its row.
constexpr std::array kErrorCodes{
    ErrorCodeInfo{RequestBadJson, "request:bad-json", 400, "The request body is not a JSON object."},
    ErrorCodeInfo{RequestMissingField, "request:missing-field", 400, "A required request field is missing."},
    ErrorCodeInfo{RequestBadField, "request:bad-field", 400, "A request field has the wrong type or value."},
    ErrorCodeInfo{RequestUnknownField, "request:unknown-field", 400,
                  "The request has a field querygate does not know."},
    ErrorCodeInfo{RequestBodyTooLarge, "request:body-too-large", 413,
                  "The HTTP body is larger than the gateway accepts."},
    ErrorCodeInfo{RequestNotFound, "request:not-found", 404, "No such route."},
    ErrorCodeInfo{RequestMethodNotAllowed, "request:method-not-allowed", 405,
                  "The route exists but not with this HTTP method."},
    ErrorCodeInfo{RequestUnknownDatabase, "request:unknown-database", 400, "The named database is not configured."},
    ErrorCodeInfo{RequestDatabaseRequired, "request:database-required", 400,
                  "Several databases are configured; the request must name one."},
    // 499 (nginx's "client closed request"): nobody reads it, but logs and
    // metrics can tell a client that left from a server that failed.
    ErrorCodeInfo{RequestCancelled, "request:cancelled", 499, "The client disconnected; its statement was cancelled."},
    ErrorCodeInfo{RequestDuplicateField, "request:duplicate-field", 400,
                  "The request body names the same field twice (at any level), or the URL a query parameter."},
    ErrorCodeInfo{RequestUnsupportedMediaType, "request:unsupported-media-type", 415,
                  "The request body is not declared as Content-Type: application/json."},
    ErrorCodeInfo{RequestMalformedHttp, "request:malformed-http", 400,
                  "The bytes are not a well-formed HTTP/1.1 request (or its headers exceed the limit)."},
    // 421 Misdirected Request: this server does not answer for that authority.
    ErrorCodeInfo{RequestHostNotAllowed, "request:host-not-allowed", 421,
                  "A loopback gateway got a Host header that does not name it (DNS rebinding defence)."},
    ErrorCodeInfo{RequestOriginNotAllowed, "request:origin-not-allowed", 403,
                  "A loopback gateway got a browser request from a foreign Origin."},
    ErrorCodeInfo{AuthMissing, "auth:missing", 401, "API keys are configured and the request carries no Bearer token."},
    ErrorCodeInfo{AuthInvalid, "auth:invalid", 401, "The Bearer token matches no configured API key."},
    ErrorCodeInfo{AuthForbidden, "auth:forbidden", 403, "The API key may not use the requested database or tool."},
    ErrorCodeInfo{AuthSqlNotAllowed, "auth:sql-not-allowed", 403,
                  "The API key may call curated tools only (sql: false), not send SQL."},
    ErrorCodeInfo{AuthMissingBinding, "auth:missing-binding", 403,
                  "A row filter of a table in the statement needs a value the API key does not bind."},
    ErrorCodeInfo{ParseSyntax, "parse:syntax", 422, "The SQL does not parse (PostgreSQL grammar)."},
    ErrorCodeInfo{ParseSqliteSpelling, "parse:sqlite-spelling", 422,
                  "A SQLite-only spelling the portable grammar rejects."},
    ErrorCodeInfo{ParseEmpty, "parse:empty", 422, "The SQL text holds no statement."},
    ErrorCodeInfo{ValidationMultiStatement, "validation:multi-statement", 422, "More than one statement was sent."},
    ErrorCodeInfo{ValidationNotReadOnly, "validation:not-read-only", 422,
                  "The statement writes, changes schema or controls transactions."},
    ErrorCodeInfo{ValidationNotSelect, "validation:not-select", 422,
                  "The statement is not a query (SELECT or a set operation)."},
    ErrorCodeInfo{ValidationTableNotAllowed, "validation:table-not-allowed", 422,
                  "The statement reads a table that is not allowlisted."},
    ErrorCodeInfo{ValidationUnknownColumn, "validation:unknown-column", 422,
                  "A column name does not resolve in its scope."},
    ErrorCodeInfo{ValidationAmbiguousColumn, "validation:ambiguous-column", 422,
                  "A column name resolves to more than one source."},
    ErrorCodeInfo{ValidationDuplicateAlias, "validation:duplicate-alias", 422,
                  "One FROM clause uses the same table name or alias twice."},
    ErrorCodeInfo{ValidationQualifiedName, "validation:qualified-name", 422,
                  "A schema- or database-qualified table name."},
    ErrorCodeInfo{ValidationSystemColumn, "validation:system-column", 422,
                  "A system column or session keyword that reads engine state."},
    ErrorCodeInfo{ValidationUnsupported, "validation:unsupported", 422, "A SQL construct querygate does not admit."},
    ErrorCodeInfo{ValidationTooDeep, "validation:too-deep", 422, "The statement nests deeper than the gateway allows."},
    ErrorCodeInfo{ValidationPlaceholder, "validation:placeholder", 422, "A bind placeholder ($1, ?) with no value."},
    ErrorCodeInfo{ValidationLockingRead, "validation:locking-read", 422, "A locking read (FOR UPDATE / FOR SHARE)."},
    ErrorCodeInfo{ValidationSelectInto, "validation:select-into", 422, "SELECT ... INTO creates a table."},
    ErrorCodeInfo{ValidationRecursiveCte, "validation:recursive-cte", 422, "WITH RECURSIVE is not admitted."},
    ErrorCodeInfo{ValidationNaturalJoin, "validation:natural-join", 422, "NATURAL JOIN hides which columns join."},
    ErrorCodeInfo{ValidationFunctionNotAllowed, "validation:function-not-allowed", 422,
                  "A function that is not in the capability table."},
    ErrorCodeInfo{ValidationCastNotAllowed, "validation:cast-not-allowed", 422,
                  "A cast to a type that is not a plain data type."},
    ErrorCodeInfo{ValidationTimestampLiteral, "validation:timestamp-literal", 422,
                  "A time-of-day literal without a UTC offset."},
    ErrorCodeInfo{ValidationStarWithoutFrom, "validation:star-without-from", 422, "SELECT * with nothing to expand."},
    ErrorCodeInfo{ValidationAmbiguousPrecedence, "validation:ambiguous-precedence", 422,
                  "Operators that SQLite groups differently from the portable grammar, without parentheses."},
    ErrorCodeInfo{ValidationCompanionColumn, "validation:companion-column", 422,
                  "A column returned without the companion column the configuration says must travel with it."},
    ErrorCodeInfo{CapabilityNotOnSqlite, "capability:not-on-sqlite", 422,
                  "Valid SQL that the SQLite backend cannot run."},
    ErrorCodeInfo{CapabilityNotOnPostgres, "capability:not-on-postgres", 422,
                  "Valid SQL that the PostgreSQL backend cannot run."},
    ErrorCodeInfo{LimitSqlTooLong, "limit:sql-too-long", 413, "The SQL text is longer than limits.max_sql_bytes."},
    ErrorCodeInfo{LimitDeadline, "limit:deadline", 504, "The statement did not finish before its deadline."},
    ErrorCodeInfo{LimitQueueFull, "limit:queue-full", 429, "Every permit is busy and the queue is full."},
    ErrorCodeInfo{LimitShuttingDown, "limit:shutting-down", 503,
                  "The gateway is shutting down; the request was not run, or was cancelled after the grace period."},
    ErrorCodeInfo{LimitRowTooLarge, "limit:row-too-large", 422, "One row alone exceeds the response byte cap."},
    ErrorCodeInfo{LimitBinaryValue, "limit:binary-value", 422,
                  "A result holds binary data (BLOB, bytea) and this gateway refuses binary values."},
    ErrorCodeInfo{LimitExpressionSize, "limit:expression-size", 422,
                  "An expression can build a value longer than limits.max_expression_growth allows."},
    ErrorCodeInfo{LimitConnections, "limit:connections", 503,
                  "Too many connections are open (from this client address, or in all); the database is fine."},
    ErrorCodeInfo{LimitMemory, "limit:memory", 422,
                  "The statement would hold more in memory than the gateway allows: a text, array or JSON aggregate "
                  "over more than limits.max_aggregate_bytes (PostgreSQL, by the planner's estimate), or SQLite "
                  "past limits.max_sqlite_heap_bytes."},
    ErrorCodeInfo{BackendError, "backend:error", 422,
                  "The database engine rejected the statement; its message is passed on."},
    ErrorCodeInfo{BackendUnavailable, "backend:unavailable", 503, "The database cannot be reached or opened."},
    ErrorCodeInfo{BackendDenied, "backend:denied", 422,
                  "The engine backstop (authorizer) denied an access admission let through."},
    ErrorCodeInfo{BackendPlanGate, "backend:plan-gate", 422, "The query plan touches something outside the allowlist."},
    ErrorCodeInfo{ToolInvalidArgument, "tool:invalid-argument", 422,
                  "A tool argument is unknown, missing, of the wrong type or not an allowed value; nothing ran."},
    ErrorCodeInfo{WriteInvalidArgument, "write:invalid-argument", 422,
                  "A write tool's argument has the wrong type, is out of range, not allowed, unknown or missing."},
    ErrorCodeInfo{WriteUnknownReference, "write:unknown-reference", 422,
                  "A write tool's argument refers to a row outside the set it may refer to."},
    ErrorCodeInfo{WriteCheckFailed, "write:check-failed", 422, "A write tool's configured check refused the row."},
    ErrorCodeInfo{WriteUnknownTool, "write:unknown-tool", 404, "No write tool has that name."},
    ErrorCodeInfo{ConfigInvalid, "config:invalid", 500, "The configuration file is invalid (start-up error)."},
    ErrorCodeInfo{Internal, "internal:error", 500, "A broken invariant inside querygate; please report it."},
};

static_assert(kErrorCodes.size() == static_cast<std::size_t>(Internal) + 1,
              "every ErrorCode needs exactly one row in kErrorCodes");

}  // namespace

std::span<const ErrorCodeInfo> all_error_codes() {
  return kErrorCodes;
}

const ErrorCodeInfo& info(ErrorCode code) {
  const auto& row = kErrorCodes[static_cast<std::size_t>(code)];
  assert(row.code == code);
  return row;
}

std::string_view name(ErrorCode code) {
  return info(code).name;
}
int http_status(ErrorCode code) {
  return info(code).http_status;
}

std::optional<ErrorCode> error_code_from_name(std::string_view n) {
  for (const auto& row : kErrorCodes)
    if (row.name == n) return row.code;
  return std::nullopt;
}

}  // namespace qg
