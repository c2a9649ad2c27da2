#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

// What a projection's tools/list costs a model's context: the bytes of its compact JSON,
// for the whole list and each tool, and tokens estimated at ~4 bytes each (an estimate,
// not a tokenizer's count). The article's 13k–488k-token problem, made visible.
struct McpCost
{
    struct Tool
    {
        QString name;
        qint64 bytes = 0;
        qint64 tokens = 0;
    };

    qint64 bytes = 0; // {"tools":[…]} whole
    qint64 tokens = 0;
    QList<Tool> tools; // in list order

    static McpCost of(const QJsonArray &tools);
    static qint64 tokensFor(qint64 bytes) { return (bytes + 3) / 4; }
    // {"tools":N,"bytes","tokens_estimate","per_tool":[{"name","bytes","tokens_estimate"}]}
    QJsonObject toJson() const;
};
