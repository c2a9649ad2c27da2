#include "dispatch/contract/mcpprojection.h"

#include "dispatch/row/doclines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace {

// MCP wants an object schema for a tool's input: the arguments arrive as one JSON object.
// A schema of another type, or text that does not parse, falls back to the body string.
bool isObjectSchema(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isUndefined())
        return schema.value(QStringLiteral("properties")).isObject();
    return type == QLatin1String("object");
}

QJsonObject schemaOf(const Row &row, const DocLines &docs)
{
    const QJsonObject schema = QJsonDocument::fromJson(row.inputSchema.toUtf8()).object();
    if (isObjectSchema(schema)) {
        QJsonObject typed = schema;
        typed.insert(QStringLiteral("type"), QStringLiteral("object"));
        return typed;
    }
    // Without a schema the one call contract is the schema: a single body string.
    const QString args = docs.args().trimmed();
    const QString description = args.isEmpty()
                                    ? QStringLiteral("The invocation body; args are split on '|'.")
                                    : QStringLiteral("The invocation body, args split on '|': %1").arg(args);
    return {
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("body"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                          {QStringLiteral("description"), description}}}}},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("body")}}};
}

QString descriptionOf(const DocLines &docs)
{
    QStringList parts{docs.description().trimmed()};
    if (!docs.whenToUse().trimmed().isEmpty())
        parts.append(QStringLiteral("Use when: %1").arg(docs.whenToUse().trimmed()));
    if (!docs.output().trimmed().isEmpty())
        parts.append(QStringLiteral("Output: %1").arg(docs.output().trimmed()));
    parts.removeAll(QString());
    return parts.join(QLatin1Char(' '));
}

} // namespace

QJsonObject McpProjection::toolsList(const QList<Row> &rows)
{
    QJsonArray tools;
    for (const Row &row : rows) {
        if (row.enabled && row.plannerVisible)
            tools.append(tool(row));
    }
    return {{QStringLiteral("tools"), tools}};
}

QJsonObject McpProjection::tool(const Row &row)
{
    const DocLines docs = DocLines::parse(row.content);
    return {{QStringLiteral("name"), row.key},
            {QStringLiteral("description"), descriptionOf(docs)},
            {QStringLiteral("inputSchema"), schemaOf(row, docs)}};
}
