#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QList>

// The directory as an MCP `tools/list` result: {"tools":[{"name","description",
// "inputSchema"}]} for the enabled, planner-visible rows. The row stays the storage
// format; this is one projection of it (the article).
class McpProjection final
{
public:
    static QJsonObject toolsList(const QList<Row> &rows);
    // One tool: typed from input_schema when it parses as an object schema (type "object",
    // or no type and properties), else one required string `body` described from the ARGS line.
    static QJsonObject tool(const Row &row);
};
