#pragma once

#include <QString>

#include <optional>

// How one MCP endpoint shows the directory and whose calls it makes.
struct McpOptions
{
    // rows: one tool per enabled, planner-visible row. contract: the article's one
    // contract as three tools (directory_search, directory_contract, dispatch).
    enum class Projection { Rows, Contract };

    Projection projection = Projection::Rows;
    // A capability token: the list shows only the rows in its scope and every call passes
    // the SPEC §7 gate with it. Empty: the owner's endpoint.
    QString token;
    // The audience the token is presented for (SPEC §7 checks it against the token's).
    QString audience;
    // Where a server keeps a receipt, with %1 for the invocation id (serve's own page, or a
    // plain server's ?confirm=); empty over stdio.
    QString receiptUrl;
    // Over stdio, the command that confirms a receipt, with %1 for the invocation id.
    QString confirmCommand;
    // Tools per tools/list page; a longer list pages with nextCursor.
    int pageSize = 500;
    // Whether serverInfo names Capdesk's version. Over stdio the client runs this very
    // binary; a network server names it only when its owner asks (serve
    // --announce-version), since a version tells an attacker which holes to try.
    bool announceVersion = false;

    static constexpr int kMaxPageSize = 5000;

    // "rows" or "contract" (empty: rows); nullopt for any other name.
    static std::optional<Projection> projectionNamed(const QString &name)
    {
        if (name.isEmpty() || name == QLatin1String("rows"))
            return Projection::Rows;
        if (name == QLatin1String("contract"))
            return Projection::Contract;
        return std::nullopt;
    }
};
