#include "dispatch/mcp/mcptoolcatalog.h"

#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/mcpbodyrule.h"
#include "dispatch/contract/mcpprojection.h"
#include "dispatch/core/faultnotice.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/row/doclines.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitytoken.h"

#include <QJsonDocument>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxSearchResults = 100;
constexpr int kDefaultSearchResults = 20;
constexpr qsizetype kMaxQueryChars = 200;

QJsonObject stringProperty(const QString &description)
{
    return {{u"type"_s, u"string"_s}, {u"description"_s, description}};
}

QJsonObject tool(const QString &name, const QString &description, const QJsonObject &properties,
                 const QStringList &required, const QJsonObject &annotations)
{
    return {{u"name"_s, name},
            {u"description"_s, description},
            {u"inputSchema"_s, QJsonObject{{u"type"_s, u"object"_s},
                                           {u"properties"_s, properties},
                                           {u"required"_s, QJsonArray::fromStringList(required)},
                                           {u"additionalProperties"_s, false}}},
            {u"annotations"_s, annotations}};
}

// The article's one contract: learn one shape, reach every row.
QJsonArray contractTools()
{
    const QJsonObject reads{
        {u"readOnlyHint"_s, true}, {u"destructiveHint"_s, false}, {u"openWorldHint"_s, false}};
    return {
        tool(u"directory_search"_s,
             u"Find capabilities: the keys and descriptions of the rows whose key or content contains the "
             "query (case-insensitive). Then read one with directory_contract and call it with dispatch."_s,
             {{u"query"_s, stringProperty(u"Words to look for in keys and contents."_s)},
              {u"limit"_s, QJsonObject{{u"type"_s, u"integer"_s},
                                       {u"minimum"_s, 1},
                                       {u"maximum"_s, kMaxSearchResults},
                                       {u"description"_s, u"At most this many results (default 20)."_s}}}},
             {u"query"_s}, reads),
        tool(u"directory_contract"_s,
             u"The contract document of one capability: what it does, when to use it, its args, an example "
             "and its output."_s,
             {{u"key"_s, stringProperty(u"The capability's key, as directory_search gives it."_s)}},
             {u"key"_s}, reads),
        tool(u"dispatch"_s,
             u"Invoke a capability: the one call contract POST /api/dispatch {key, body}. The body is one "
             "string; its args are split on '|', and a template's $N+ takes the rest whole."_s,
             {{u"key"_s, stringProperty(u"The capability's key."_s)},
              {u"body"_s, stringProperty(u"The invocation body, args split on '|'."_s)}},
             {u"key"_s},
             {{u"readOnlyHint"_s, false}, {u"destructiveHint"_s, true}, {u"openWorldHint"_s, true}}),
    };
}

McpToolCatalog::Answer toolError(const QString &message)
{
    return {message, true, false, std::nullopt};
}

std::optional<QString> stringArgument(const QJsonObject &arguments, const QString &name, bool required,
                                      QString *error)
{
    const QJsonValue value = arguments.value(name);
    if (value.isUndefined() && !required)
        return QString();
    if (!value.isString()) {
        *error = value.isUndefined() ? u"argument '%1' is required"_s.arg(name)
                                     : u"argument '%1' must be a string"_s.arg(name);
        return std::nullopt;
    }
    return value.toString();
}

QString unknownArgument(const QJsonObject &arguments, const QStringList &known)
{
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        if (!known.contains(it.key()))
            return u"unknown argument '%1': this tool takes %2"_s.arg(it.key(), known.join(", "_L1));
    }
    return {};
}

} // namespace

McpToolCatalog::McpToolCatalog(std::shared_ptr<const DirectoryStore> store,
                               std::shared_ptr<DirectoryLedger> ledger, McpOptions options)
    : m_store(std::move(store)), m_ledger(std::move(ledger)), m_options(std::move(options))
{}

bool McpToolCatalog::inTokenScope(const QString &key, const QString &category)
{
    if (m_options.token.isEmpty())
        return true;
    if (!m_tokenRead) {
        // Read again after each change: a revoked or narrowed token narrows the list then.
        // No ledger (a bridge): no token is read here, so the token reaches nothing.
        const StoreResult<CapabilityToken> token =
            m_ledger ? m_ledger->tokens().findByValue(m_options.token)
                     : StoreResult<CapabilityToken>(StoreError::make(StoreError::Kind::NotFound, QString()));
        m_scopeKeys.clear();
        m_scopeCategories.clear();
        if (token.ok() && !token.value().isRevoked()) {
            m_scopeKeys = token.value().allowedKeys;
            m_scopeCategories = token.value().allowedCategories;
        }
        m_tokenRead = true;
    }
    // The gate's own scope test (SPEC §7); an unreadable token reaches nothing.
    return m_scopeKeys.contains(key) || (!category.isEmpty() && m_scopeCategories.contains(category));
}

StoreError McpToolCatalog::readListedRows()
{
    if (m_listed)
        return {};
    StoreResult<QList<Row>> rows = m_store->allRows();
    if (!rows.ok())
        return rows.error();
    QList<Row> listed;
    for (Row &row : rows.value()) {
        if (McpProjection::isListed(row) && inTokenScope(row.key, row.category))
            listed.append(std::move(row));
    }
    m_listed = std::move(listed);
    return {};
}

StoreResult<QJsonArray> McpToolCatalog::tools()
{
    if (m_options.projection == McpOptions::Projection::Contract)
        return contractTools();
    if (const StoreError error = readListedRows(); error.isError())
        return error;
    QJsonArray tools;
    for (const Row &row : std::as_const(*m_listed))
        tools.append(McpProjection::tool(row));
    return tools;
}

StoreResult<QJsonObject> McpToolCatalog::page(const QString &cursor, bool *badCursor)
{
    *badCursor = false;
    qsizetype start = 0;
    if (!cursor.isEmpty()) {
        // The cursor is the offset of the page; a list that shrank in between ends early.
        bool ok = false;
        start = QByteArray::fromBase64(cursor.toLatin1(), QByteArray::AbortOnBase64DecodingErrors)
                    .toLongLong(&ok);
        if (!ok || start <= 0) {
            *badCursor = true;
            return QJsonObject();
        }
    }
    if (m_options.projection == McpOptions::Projection::Contract) {
        if (start > 0) {
            *badCursor = true;
            return QJsonObject();
        }
        return QJsonObject{{u"tools"_s, contractTools()}};
    }
    // The rows are read once per change; only the page's tools are built.
    if (const StoreError error = readListedRows(); error.isError())
        return error;
    // A cursor past the end is none this catalog handed out (a list that shrank since
    // ends at its end).
    if (start > m_listed->size() + McpOptions::kMaxPageSize) {
        *badCursor = true;
        return QJsonObject();
    }
    const int size = qBound(1, m_options.pageSize, McpOptions::kMaxPageSize);
    const qsizetype end = std::min(m_listed->size(), start + size);
    QJsonArray page;
    for (qsizetype i = start; i < end; ++i)
        page.append(McpProjection::tool(m_listed->at(i)));
    QJsonObject result{{u"tools"_s, page}};
    if (end < m_listed->size())
        result.insert(u"nextCursor"_s, QString::fromLatin1(QByteArray::number(end).toBase64()));
    return result;
}

InvocationRequest McpToolCatalog::request(const QString &key, const QString &body, const QString &actor) const
{
    InvocationRequest request;
    request.key = key;
    request.body = body;
    request.token = m_options.token;
    request.audience = m_options.audience;
    // A token's calls are recorded as the token's (the gate names it); the owner's as the client.
    if (m_options.token.isEmpty())
        request.actor = actor;
    return request;
}

McpToolCatalog::Call McpToolCatalog::call(const QString &name, const QJsonObject &arguments,
                                          const QString &actor)
{
    if (m_options.projection == McpOptions::Projection::Contract) {
        if (name == "directory_search"_L1)
            return search(arguments);
        if (name == "directory_contract"_L1)
            return contract(arguments);
        if (name != "dispatch"_L1)
            return Answer{u"unknown tool '%1'"_s.arg(name), true, true, std::nullopt};
        QString error = unknownArgument(arguments, {u"key"_s, u"body"_s});
        const std::optional<QString> key = stringArgument(arguments, u"key"_s, true, &error);
        const std::optional<QString> body = stringArgument(arguments, u"body"_s, false, &error);
        if (!error.isEmpty() || !key || !body)
            return toolError(error);
        // The one contract reaches only what directory_search and directory_contract show.
        if (const StoreResult<Row> offered = offeredRow(*key); !offered.ok())
            return storeError(offered.error());
        return request(*key, *body, actor);
    }
    const StoreResult<Row> row = offeredRow(name);
    if (!row.ok() && row.error().kind != StoreError::Kind::NotFound)
        return storeError(row.error());
    if (!row.ok())
        return Answer{u"unknown tool '%1'"_s.arg(name), true, true, std::nullopt};
    QString error;
    const std::optional<QString> body = McpBodyRule::bodyOf(row.value(), arguments, &error);
    if (!body)
        return toolError(error);
    return request(name, *body, actor);
}

McpToolCatalog::Answer McpToolCatalog::search(const QJsonObject &arguments)
{
    QString error = unknownArgument(arguments, {u"query"_s, u"limit"_s});
    const std::optional<QString> query = stringArgument(arguments, u"query"_s, true, &error);
    if (!error.isEmpty() || !query)
        return toolError(error);
    if (query->trimmed().isEmpty() || query->size() > kMaxQueryChars)
        return toolError(u"argument 'query' must hold 1 to %1 characters"_s.arg(kMaxQueryChars));
    int limit = kDefaultSearchResults;
    if (arguments.contains(u"limit"_s)) {
        const double asked = arguments.value(u"limit"_s).toDouble(-1);
        if (asked != int(asked) || asked < 1 || asked > kMaxSearchResults)
            return toolError(
                u"argument 'limit' must be a whole number from 1 to %1"_s.arg(kMaxSearchResults));
        limit = int(asked);
    }
    const StoreResult<QStringList> byContent = m_store->keysWithContent(query->trimmed());
    if (!byContent.ok())
        return storeError(byContent.error());
    QSet<QString> matched(byContent.value().cbegin(), byContent.value().cend());
    const StoreError scanned = m_store->scanSummaries([&](const RowSummary &summary) {
        if (summary.key.contains(query->trimmed(), Qt::CaseInsensitive))
            matched.insert(summary.key);
    });
    if (scanned.isError())
        return storeError(scanned);
    QStringList keys(matched.cbegin(), matched.cend());
    keys.sort();
    const StoreResult<QList<Row>> rows = m_store->rows(keys);
    if (!rows.ok())
        return storeError(rows.error());
    QList<Row> found = rows.value();
    std::sort(found.begin(), found.end(), [](const Row &a, const Row &b) { return a.key < b.key; });
    QJsonArray results;
    bool truncated = false;
    for (const Row &row : found) {
        if (!McpProjection::isListed(row) || !inTokenScope(row.key, row.category))
            continue;
        if (results.size() == limit) {
            truncated = true;
            break;
        }
        results.append(QJsonObject{{u"key"_s, row.key},
                                   {u"type"_s, row.type},
                                   {u"description"_s, DocLines::parse(row.content).description().trimmed()}});
    }
    const QJsonObject result{{u"results"_s, results}, {u"truncated"_s, truncated}};
    return {QString::fromUtf8(QJsonDocument(result).toJson(QJsonDocument::Compact)), false, false, result};
}

McpToolCatalog::Answer McpToolCatalog::contract(const QJsonObject &arguments)
{
    QString error = unknownArgument(arguments, {u"key"_s});
    const std::optional<QString> key = stringArgument(arguments, u"key"_s, true, &error);
    if (!error.isEmpty() || !key)
        return toolError(error);
    const StoreResult<Row> row = offeredRow(*key);
    if (!row.ok())
        return storeError(row.error());
    return {ContractDocument::render(row.value()), false, false, std::nullopt};
}

McpToolCatalog::Answer McpToolCatalog::storeError(const StoreError &error) const
{
    const bool asked = error.kind == StoreError::Kind::NotFound || error.kind == StoreError::Kind::Invalid;
    return toolError(asked || m_options.token.isEmpty() ? error.message : FaultNotice::hide(error.message));
}

StoreResult<Row> McpToolCatalog::offeredRow(const QString &key)
{
    StoreResult<Row> row = m_store->row(key);
    const bool offered =
        row.ok() && McpProjection::isListed(row.value()) && inTokenScope(key, row.value().category);
    if (offered || (!row.ok() && row.error().kind != StoreError::Kind::NotFound))
        return row;
    return StoreError::make(StoreError::Kind::NotFound, u"no capability has the key '%1'"_s.arg(key));
}
