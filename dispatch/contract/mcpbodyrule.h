#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// How an MCP `tools/call`'s arguments become the one body string of SPEC §2 for a tool of
// the rows projection. One rule, said in every tool's description:
//  - a tool typed `{"body": string}` (the row has no object input_schema) takes `body`
//    as the body, verbatim;
//  - a row whose JSON payload takes the whole body raw as a JSON value (its only arg
//    placeholder is `$$1+`) takes the arguments as compact JSON text;
//  - any other row takes the properties' values joined with '|', in the order its
//    ARGS line names them (when it names every property), else in the order the
//    input_schema text lists them; a missing one is empty, a number or boolean is its
//    JSON text. Only the last may contain '|', and only when the template takes it with
//    `$N+`; any other '|' would shift the args, so it is refused by name.
// An argument the schema does not name is refused too: dropping it would run a call the
// client did not ask for.
class McpBodyRule final
{
public:
    enum class Kind { BodyString, Json, Joined };

    static Kind kindOf(const Row &row);
    // The object input_schema of the row, when it has one (type "object", or no type and
    // properties); nullopt otherwise.
    static std::optional<QJsonObject> objectSchemaOf(const Row &row);
    // The property names in the order the body joins them (Kind::Joined).
    static QStringList joinOrder(const Row &row);
    // The body, or nullopt with `error` naming the argument.
    static std::optional<QString> bodyOf(const Row &row, const QJsonObject &arguments, QString *error);
    // The rule as the tool's description says it.
    static QString describe(const Row &row);
};
