#pragma once

#include "dispatch/call/invocation.h"
#include "dispatch/core/storeerror.h"
#include "dispatch/mcp/mcpoptions.h"
#include "dispatch/row/row.h"

#include <QJsonArray>
#include <QJsonObject>

#include <memory>
#include <optional>
#include <variant>

class DirectoryLedger;
class DirectoryStore;

// The tools an MCP client sees, in the projection the owner chose, and what calling one
// means. The listed rows are read once and kept until invalidate() (a change to the
// directory), and a page builds only its own tools, so paging through 100,000 rows reads
// them once and never holds the whole list as JSON.
class McpToolCatalog final
{
public:
    // A tool call the catalog answers itself (directory_search, directory_contract) or an
    // error the client made (unknown tool, bad arguments), as a CallToolResult's text.
    struct Answer
    {
        QString text;
        bool isError = false;
        bool unknownTool = false; // a JSON-RPC error (-32602), not a tool's result
        std::optional<QJsonValue> structured;
    };
    using Call = std::variant<Answer, InvocationRequest>;

    McpToolCatalog(std::shared_ptr<const DirectoryStore> store, std::shared_ptr<DirectoryLedger> ledger,
                   McpOptions options);

    const McpOptions &options() const { return m_options; }
    // One tools/list page from `cursor` (empty: the first): {"tools":[…]} with
    // "nextCursor" when more follow. A cursor this catalog did not hand out is `badCursor`.
    StoreResult<QJsonObject> page(const QString &cursor, bool *badCursor);
    // Every tool, unpaged (capdeskctl mcp-tools, the GUI's MCP view).
    StoreResult<QJsonArray> tools();
    Call call(const QString &name, const QJsonObject &arguments, const QString &actor);
    void invalidate()
    {
        m_listed.reset();
        m_tokenRead = false;
    }

private:
    // The listed rows in scope, read once per change.
    StoreError readListedRows();
    bool inTokenScope(const QString &key, const QString &category);
    // The row behind `key` when this catalog offers it to a client (enabled,
    // planner-visible, in the token's scope); NotFound, named, when it does not.
    StoreResult<Row> offeredRow(const QString &key);
    Answer search(const QJsonObject &arguments);
    Answer contract(const QJsonObject &arguments);
    // A store error as a tool's error: what the client asked for that is not there says
    // so; a fault of the store is named to a token's client only by its id (FaultNotice).
    Answer storeError(const StoreError &error) const;
    InvocationRequest request(const QString &key, const QString &body, const QString &actor) const;

    std::shared_ptr<const DirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    McpOptions m_options;
    std::optional<QList<Row>> m_listed;
    bool m_tokenRead = false;
    QStringList m_scopeKeys;
    QStringList m_scopeCategories;
};
