#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QList>

// The directory as an MCP `tools/list` result: {"tools":[{"name","description",
// "inputSchema","annotations"}]} for the enabled, planner-visible rows (the rows
// projection). The row stays the storage format; this is one projection of it (the article).
class McpProjection final
{
public:
    static bool isListed(const Row &row) { return row.enabled && row.plannerVisible; }
    static QJsonObject toolsList(const QList<Row> &rows);
    // One tool: typed from input_schema when it parses as an object schema (type "object",
    // or no type and properties), else one required string `body` described from the ARGS
    // line. The description ends with how the arguments become the body (McpBodyRule).
    static QJsonObject tool(const Row &row);
    // What the row says of its effects, as MCP's hints: readOnlyHint for an fn row and a
    // GET or HEAD http row; destructiveHint for DELETE and a sensitive row; openWorldHint
    // for http and agent rows and for flows, which may reach either.
    static QJsonObject annotations(const Row &row);
};
