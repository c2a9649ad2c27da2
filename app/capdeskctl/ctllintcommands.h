#pragma once

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/core/storeerror.h"
#include "dispatch/mcp/mcpoptions.h"

#include <QJsonArray>

#include <memory>

class DirectoryStore;

// The hygiene commands of SPEC §11, for an owner's CI:
// - `lint [KEY…]`: every finding as [{"key","code","name","severity","field","message"}]
//   for the named rows (all rows when none is named), judged against the whole
//   directory; exit 1 when any finding is an error, 3 when a KEY names no row.
// - `contract KEY`: the row's contract document (SPEC §9), Markdown on stdout.
// - `mcp-tools`: the MCP tools/list projection of the enabled, planner-visible rows.
class CtlLintCommands final
{
public:
    CtlLintCommands(const CtlArguments &args, std::shared_ptr<DirectoryStore> store);

    int lint();
    int contract();
    int mcpTools();

private:
    StoreResult<QJsonArray> toolsOf(McpOptions::Projection projection) const;

    const CtlArguments &m_args;
    std::shared_ptr<DirectoryStore> m_store;
};
