#include "dispatch/lint/rules/jsonrules.h"

#include "dispatch/json/jsonsyntaxcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace {

QString schemaProblem(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (!type.isUndefined() && !type.isString() && !type.isArray())
        return QStringLiteral("\"type\" must be a string such as \"object\"");
    const QJsonValue properties = schema.value(QStringLiteral("properties"));
    if (!properties.isUndefined() && !properties.isObject())
        return QStringLiteral("\"properties\" must be an object");
    const QJsonValue required = schema.value(QStringLiteral("required"));
    if (!required.isUndefined()) {
        const QJsonArray names = required.toArray();
        if (!required.isArray()
            || std::any_of(names.cbegin(), names.cend(), [](const QJsonValue &v) { return !v.isString(); }))
            return QStringLiteral("\"required\" must be an array of property names");
    }
    return {};
}

QList<LintHit> inputSchema(const LintContext &context)
{
    const QString &text = context.row.inputSchema;
    if (text.trimmed().isEmpty())
        return {};
    const JsonSyntaxCheck syntax = JsonSyntaxCheck::check(text);
    if (!syntax.ok)
        return {{QStringLiteral("input_schema is not JSON (%1); fix it or clear the field.")
                     .arg(syntax.message)}};
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8());
    if (!document.isObject())
        return {{QStringLiteral(
            "input_schema must be a JSON Schema object: {\"type\":\"object\",\"properties\":{…}}.")}};
    const QString problem = schemaProblem(document.object());
    if (!problem.isEmpty())
        return {{QStringLiteral("input_schema: %1.").arg(problem)}};
    return {};
}

QList<LintHit> examples(const LintContext &context)
{
    const QString &text = context.row.examples;
    if (text.trimmed().isEmpty())
        return {};
    const QString fix = QStringLiteral("examples must be a JSON array of body strings: [\"a|b\", \"c\"].");
    if (!JsonSyntaxCheck::isValid(text))
        return {{fix}};
    const QJsonDocument &document = context.examplesJson;
    const QJsonArray items = document.array();
    if (!document.isArray()
        || std::any_of(items.cbegin(), items.cend(), [](const QJsonValue &v) { return !v.isString(); }))
        return {{fix}};
    return {};
}

} // namespace

namespace JsonRules {

void add(QList<LintRule> &rules)
{
    rules.append(
        {{QStringLiteral("H050"), QStringLiteral("input_schema_json"), QStringLiteral("error"),
          QStringLiteral("input_schema"), QStringLiteral("input_schema parses and is a JSON Schema object")},
         inputSchema});
    rules.append({{QStringLiteral("H051"), QStringLiteral("examples_json"), QStringLiteral("error"),
                   QStringLiteral("examples"), QStringLiteral("examples is a JSON array of strings")},
                  examples});
}

} // namespace JsonRules
