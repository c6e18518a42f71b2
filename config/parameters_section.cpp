// Typed parameters of configured statements (tools.<name>.parameters, and any
// other configured statement that takes `:name` arguments): the key table of one
// parameter and its reader. What the values mean is tools/parameters.hpp's
// (check_spec); this reads the YAML shape, with positions and did-you-mean.
#include <string>
#include <utility>
#include <vector>

#include "config/section_readers.hpp"
#include "config/yaml_reader.hpp"

namespace qg::config::detail {

namespace {

using tools::ParameterSpec;
using tools::ParamType;

// <...>.parameters.<name>.*
constexpr TextKey<ParameterSpec> kParameterTexts[] = {
    {"description", &ParameterSpec::description, ""},
    {"values_from", &ParameterSpec::values_from, ""},  // a query; its first column lists the allowed values
    {"pattern", &ParameterSpec::pattern, ""},          // ECMAScript regular expression (JSON Schema's dialect)
    {"after", &ParameterSpec::after, ""},              // another parameter this one must be greater than
    {"references", &ParameterSpec::references, ""},    // write tools: a query listing the rows it may point at
};
constexpr BoolKey<ParameterSpec> kParameterBools[] = {
    {"untrusted", &ParameterSpec::untrusted, false},  // write tools: end-user/model text
};
constexpr OwnKey kParameterOwn[] = {
    {"type", "integer, number, string, boolean, date or timestamp", true},
    {"required", "true or false (default true; false when a default is given)"},
    {"default", "a value of the parameter's type, used when the caller sends none"},
    {"min", "the smallest value accepted (integer, number, date, timestamp)"},
    {"max", "the largest value accepted (integer, number, date, timestamp)"},
    {"enum", "a list of the values accepted, e.g. [EU, US]"},
    {"max_length", "the longest string accepted, in characters (1..65536)"},
};
constexpr KeyTable<ParameterSpec> kParameterKeys{
    .bools = kParameterBools, .texts = kParameterTexts, .own = kParameterOwn};

Result<tools::Value> read_literal(const Entry& entry, ParamType type) {
  if (!entry.value.IsScalar())
    return config_error("'" + entry.path + "' must be a single value of type " + std::string(tools::type_name(type)) +
                            "; got " + describe(entry.value) + position_of(entry),
                        "Write one value, e.g. " + entry.path.substr(entry.path.rfind('.') + 1) + ": 7.");
  Result<tools::Value> value = tools::parse_config_literal(type, entry.value.Scalar());
  if (!value) {
    Error error = std::move(value).error();
    error.message = "'" + entry.path + "': " + error.message + position_of(entry);
    return error;
  }
  return value;
}

Status read_parameter(const std::string& name, const Entry& entry, tools::Parameters& out, bool for_writes) {
  if (!is_identifier(name, /*dash_allowed=*/false))
    return config_error("parameter name '" + entry.path + "' is not an identifier" + position_of(entry),
                        "Use letters, digits and '_', starting with a letter or '_' (it is written :" + clipped(name) +
                            " in the SQL).");
  if (!entry.value.IsMap())
    return config_error("'" + entry.path + "' must be a mapping; got " + describe(entry.value) + position_of(entry),
                        "Write e.g. " + name + ": { type: integer, min: 1, max: 90, default: 7 }.");
  ParameterSpec spec;
  spec.name = name;
  // The type decides how min, max, enum and default read, wherever it is written.
  if (const YAML::Node type_node = entry.value["type"]; type_node && type_node.IsScalar()) {
    const auto type = tools::type_from_name(type_node.Scalar());
    if (!type) {
      std::string message = "'" + child_path(entry.path, "type") + "' is '" + clipped(type_node.Scalar()) +
                            "', not a parameter type" + position_of(type_node);
      return config_error(message, "Use one of: " + tools::type_names() + ".");
    }
    spec.type = *type;
  }
  bool required_written = false;
  Status status =
      read_section(entry, kParameterKeys, std::nullopt, spec, [&](const OwnKey& own, const Entry& own_entry) -> Status {
        if (own.name == "type") {
          if (!own_entry.value.IsScalar())
            return config_error("'" + own_entry.path + "' must be " + std::string(own.expects) +
                                position_of(own_entry));
          return {};  // read above
        }
        if (own.name == "required") {
          required_written = true;
          return read_bool(own_entry, spec.required);
        }
        if (own.name == "max_length") {
          int length = 0;
          if (Status s = read_int(own_entry, 1, 65536, length); !s) return s;
          spec.max_length = length;
          return {};
        }
        if (own.name == "default" || own.name == "min" || own.name == "max") {
          Result<tools::Value> value = read_literal(own_entry, spec.type);
          if (!value) return std::move(value).error();
          (own.name == "default" ? spec.default_value
           : own.name == "min"   ? spec.min
                                 : spec.max) = std::move(value).value();
          return {};
        }
        if (own.name == "enum") {
          if (!own_entry.value.IsSequence() || own_entry.value.size() == 0)
            return config_error("'" + own_entry.path + "' must be " + std::string(own.expects) + "; got " +
                                    describe(own_entry.value) + position_of(own_entry),
                                "List at least one value.");
          for (std::size_t i = 0; i < own_entry.value.size(); ++i) {
            const Entry item{YAML::Node(), own_entry.value[i], own_entry.path + "[" + std::to_string(i) + "]"};
            Result<tools::Value> value = read_literal(item, spec.type);
            if (!value) return std::move(value).error();
            spec.enum_values.push_back(std::move(value).value());
          }
          return {};
        }
        return unhandled(own, own_entry);
      });
  if (!status) return status;
  if (!for_writes && (!spec.references.empty() || spec.untrusted))
    return config_error(
        "'" + entry.path + "': references and untrusted apply to write tools' parameters" + position_of(entry),
        "Remove them here (a curated tool only reads; use values_from to restrict a value to a "
        "live list).");
  if (required_written && spec.required && spec.default_value)
    return config_error("'" + entry.path + "' is required and has a default" + position_of(entry),
                        "Remove 'required: true' (a parameter with a default may be left out) or the default.");
  if (Status checked = tools::check_spec(spec); !checked) {
    Error error = std::move(checked).error();
    error.message = "'" + entry.path + "': " + error.message + position_of(entry);
    return error;
  }
  if (for_writes && spec.type == ParamType::String && !spec.max_length && spec.enum_values.empty())
    spec.max_length = kWriteStringChars;  // an enum bounds the length already
  out.push_back(std::move(spec));
  return {};
}

}  // namespace

Status read_parameters(const Entry& entry, tools::Parameters& out, bool for_writes) {
  Status status = read_named(entry, "a mapping of parameter names to { type: ..., ... }",
                             [&](const std::string& name, const Entry& parameter) {
                               return read_parameter(name, parameter, out, for_writes);
                             });
  if (!status) return status;
  if (Status checked = tools::check_specs(out); !checked) {
    Error error = std::move(checked).error();
    error.message = "'" + entry.path + "': " + error.message + position_of(entry);
    return error;
  }
  return {};
}

}  // namespace qg::config::detail
