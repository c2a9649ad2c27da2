#pragma once

#include "dispatch/core/textposition.h"
#include "dispatch/flows/flowplan.h"

#include <QJsonObject>
#include <QString>
#include <QStringView>

#include <optional>

struct FlowParseError
{
    TextPosition position;
    QString reason;

    // "line 2, column 7: unclosed '{'"
    QString describe() const { return position.describe(reason); }
    // {"ok":false,"error":reason,"line","column"}, as capdeskctl prints it.
    QJsonObject toJson() const;
};

struct FlowParseResult
{
    FlowPlan plan; // empty when there is an error
    std::optional<FlowParseError> error;

    bool ok() const { return !error; }
};

// Reads a flow (SPEC §4) into its plan, or names the line, column and reason it cannot.
//
// - Steps split on '>' at the top level only: outside {} and [] nesting, outside
//   double-quoted strings (where '\' escapes the next character), and not the '>' of
//   "=>". "\>" outside a string is a literal '>' and stays in the body as '>'.
// - A step is `KEY[: body][ => NAME]` or `{ call | call … }[ => NAME]`. Inside a fan-out a
//   '|' starts a new branch only when `KEY:` follows it (blanks allowed), so pipes inside
//   branch bodies stay in the body.
// - `=> NAME` binds only when NAME matches [A-Z_][A-Z0-9_]* and ends the call; any other
//   "=>" is body text.
// - Doc lines (first non-blank character '#') are skipped, as stripDocs does before a run,
//   so the whole `content` of a flow row can be given and positions are in that text.
//
// A pure function that accepts any input without crashing; it is fuzzed.
class FlowParser final
{
public:
    static FlowParseResult parse(QStringView content);
    // [A-Z_][A-Z0-9_]*, what `=> NAME` and `$NAME` accept.
    static bool isBindingName(QStringView text);
};
