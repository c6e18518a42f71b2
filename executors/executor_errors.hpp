#pragma once
// Refusals every executor gives alike, so an agent reads the same words and FIX
// whichever engine ran its statement.
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace qg::exec {

// The request's deadline passed while the statement ran (504 limit:deadline).
Error deadline_error();
// Nobody waits for the answer any more: the client left, or shutdown (request:cancelled).
Error cancelled_error();

// For start-up errors about a name the database does not have:
// "; did you mean 'items'?" or, with no close match, the names there are.
std::string name_suggestion(const std::string& wanted, const std::vector<std::string>& existing);

// An engine's words about a statement that failed, as an agent may read them.
// Engines quote the values they could not use, and a value the statement read
// from the data is untrusted text (a stored prompt injection, say): it must not
// reach the agent unflagged in an error message. A quoted fragment ("..." or
// '...', SQLite's '' escapes read as one quote) is kept only when it appears
// verbatim in `sql`, the text that ran (identifiers and literals the statement
// wrote); otherwise everything from its opening quote to the last quote of the
// message is replaced by kWithheldValue. Fails closed when a value from the
// data holds quotes itself: an unpaired quote withholds to the end, and text
// between two quoted fragments must be one of the engines' few connectives
// (" for ", ", " ...), or the fragments and what lies between them are withheld.
// Every executor passes its engine's words through here, and nowhere else.
inline constexpr std::string_view kWithheldValue = "\"<a value from the data, withheld>\"";
struct EngineWords {
  std::string text;
  bool withheld = false;  // a value from the data was replaced by kWithheldValue
};
EngineWords engine_words(std::string_view words, std::string_view sql);

// The FIX for an engine error about a value that came from the data (withheld):
// the statement cannot change the value, only which rows reach the function.
extern const std::string kDataValueFix;

// What to do about the engine errors agents meet most, by PostgreSQL's SQLSTATE (the engine's message is passed
// on as well; this says how to change the statement). Empty when there is no general advice.
std::string fix_for_sqlstate(const std::string& state, const std::string& message);
// The same when the value the engine could not read came from a column (withheld).
std::string fix_for_data_value(const std::string& state);
// The SQLSTATE of a PostgreSQL error that querygate's SQLite functions raise in PostgreSQL's words ("division
// by zero", "integer out of range", "invalid input syntax for type ..."); empty for any other words.
std::string sqlstate_of_words(std::string_view words);

}  // namespace qg::exec
