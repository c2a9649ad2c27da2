#include "dispatch/contract/mcpprojection.h"

#include "dispatch/contract/mcpbodyrule.h"
#include "dispatch/row/doclines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace {

QJsonObject schemaOf(const Row &row, const DocLines &docs)
{
    if (std::optional<QJsonObject> schema = McpBodyRule::objectSchemaOf(row)) {
        schema->insert(u"type"_s, u"object"_s);
        return *schema;
    }
    // Without a schema the one call contract is the schema: a single body string.
    const QString args = docs.args().trimmed();
    const QString description = args.isEmpty() ? u"The invocation body; args are split on '|'."_s
                                               : u"The invocation body, args split on '|': %1"_s.arg(args);
    return {{u"type"_s, u"object"_s},
            {u"properties"_s, QJsonObject{{u"body"_s, QJsonObject{{u"type"_s, u"string"_s},
                                                                  {u"description"_s, description}}}}},
            {u"required"_s, QJsonArray{u"body"_s}}};
}

QString httpMethodOf(const Row &row)
{
    const QString target = row.target.trimmed();
    return target.left(target.indexOf(u' ')).toUpper();
}

QString descriptionOf(const Row &row, const DocLines &docs)
{
    QStringList parts{docs.description().trimmed()};
    if (!docs.whenToUse().trimmed().isEmpty())
        parts.append(QStringLiteral("Use when: %1").arg(docs.whenToUse().trimmed()));
    if (!docs.output().trimmed().isEmpty())
        parts.append(QStringLiteral("Output: %1").arg(docs.output().trimmed()));
    parts.append(McpBodyRule::describe(row));
    parts.removeAll(QString());
    return parts.join(QLatin1Char(' '));
}

} // namespace

QJsonObject McpProjection::toolsList(const QList<Row> &rows)
{
    QJsonArray tools;
    for (const Row &row : rows) {
        if (isListed(row))
            tools.append(tool(row));
    }
    return {{QStringLiteral("tools"), tools}};
}

QJsonObject McpProjection::tool(const Row &row)
{
    const DocLines docs = DocLines::parse(row.content);
    return {{u"name"_s, row.key},
            {u"description"_s, descriptionOf(row, docs)},
            {u"inputSchema"_s, schemaOf(row, docs)},
            {u"annotations"_s, annotations(row)}};
}

QJsonObject McpProjection::annotations(const Row &row)
{
    const bool http = row.type == "http"_L1;
    const QString method = http ? httpMethodOf(row) : QString();
    return {{u"readOnlyHint"_s, row.type == "fn"_L1 || method == "GET"_L1 || method == "HEAD"_L1},
            {u"destructiveHint"_s, method == "DELETE"_L1 || row.sensitive},
            {u"openWorldHint"_s, http || row.type == "agent"_L1 || row.type == "flow"_L1}};
}
