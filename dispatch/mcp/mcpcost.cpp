#include "dispatch/mcp/mcpcost.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

McpCost McpCost::of(const QJsonArray &tools)
{
    McpCost cost;
    cost.bytes = QJsonDocument(QJsonObject{{u"tools"_s, tools}}).toJson(QJsonDocument::Compact).size();
    cost.tokens = tokensFor(cost.bytes);
    cost.tools.reserve(tools.size());
    for (const auto &tool : tools) {
        const qint64 bytes = QJsonDocument(tool.toObject()).toJson(QJsonDocument::Compact).size();
        cost.tools.append({tool.toObject().value(u"name"_s).toString(), bytes, tokensFor(bytes)});
    }
    return cost;
}

QJsonObject McpCost::toJson() const
{
    QJsonArray perTool;
    for (const Tool &tool : tools)
        perTool.append(QJsonObject{
            {u"name"_s, tool.name}, {u"bytes"_s, tool.bytes}, {u"tokens_estimate"_s, tool.tokens}});
    return {{u"tools"_s, tools.size()},
            {u"bytes"_s, bytes},
            {u"tokens_estimate"_s, tokens},
            {u"per_tool"_s, perTool}};
}
