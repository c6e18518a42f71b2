#pragma once
// The one list of error codes querygate answers with. Every stage names its
// failures with these; the gateway maps them to HTTP statuses and the OpenAPI
// document enumerates them from the same table (see kErrorCodes).
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace qg {

enum class ErrorCode : std::uint8_t {
  // request:* — the HTTP request itself is malformed
  RequestBadJson,
  RequestMissingField,
  RequestBadField,
  RequestUnknownField,
  RequestBodyTooLarge,
  RequestNotFound,
  RequestMethodNotAllowed,
  RequestUnknownDatabase,
  RequestDatabaseRequired,
  RequestCancelled,
  RequestDuplicateField,
  RequestUnsupportedMediaType,
  RequestMalformedHttp,
  RequestHostNotAllowed,
  RequestOriginNotAllowed,
  // auth:* — who is calling, and may they use this database
  AuthMissing,
  AuthInvalid,
  AuthForbidden,
  AuthSqlNotAllowed,
  AuthMissingBinding,
  // parse:* — the SQL text does not parse
  ParseSyntax,
  ParseSqliteSpelling,
  ParseEmpty,
  // validation:* — parsed, but not something querygate runs
  ValidationMultiStatement,
  ValidationNotReadOnly,
  ValidationNotSelect,
  ValidationTableNotAllowed,
  ValidationUnknownColumn,
  ValidationAmbiguousColumn,
  ValidationDuplicateAlias,
  ValidationQualifiedName,
  ValidationSystemColumn,
  ValidationUnsupported,
  ValidationTooDeep,
  ValidationPlaceholder,
  ValidationLockingRead,
  ValidationSelectInto,
  ValidationRecursiveCte,
  ValidationNaturalJoin,
  ValidationFunctionNotAllowed,
  ValidationCastNotAllowed,
  ValidationTimestampLiteral,
  ValidationStarWithoutFrom,
  ValidationAmbiguousPrecedence,
  ValidationCompanionColumn,
  // capability:* — valid SQL, but not on this backend
  CapabilityNotOnSqlite,
  CapabilityNotOnPostgres,
  // limit:* — a bound was hit
  LimitSqlTooLong,
  LimitDeadline,
  LimitQueueFull,
  LimitShuttingDown,
  LimitRowTooLarge,
  LimitBinaryValue,
  LimitExpressionSize,
  LimitConnections,
  LimitMemory,
  // backend:* — the engine said no or is away
  BackendError,
  BackendUnavailable,
  BackendDenied,
  BackendPlanGate,
  // tool:* — a call of a curated tool (POST /v1/tools/{name}, MCP tools/call)
  ToolInvalidArgument,
  // write:* — a write tool (writes/) refused the call; nothing was written
  WriteInvalidArgument,
  WriteUnknownReference,
  WriteCheckFailed,
  WriteUnknownTool,
  // config:* — the operator's configuration file (start-up only, never an agent's doing)
  ConfigInvalid,
  // internal — a broken invariant (never caused by what an agent typed)
  Internal,
};

struct ErrorCodeInfo {
  ErrorCode code;
  std::string_view name;  // stable, namespaced: "validation:unknown-column"
  int http_status;
  std::string_view meaning;  // one line, for the OpenAPI document and docs
};

std::span<const ErrorCodeInfo> all_error_codes();
const ErrorCodeInfo& info(ErrorCode code);
std::string_view name(ErrorCode code);
int http_status(ErrorCode code);
std::optional<ErrorCode> error_code_from_name(std::string_view name);

}  // namespace qg
