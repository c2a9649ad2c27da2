#include "agentendpoints.h"

#include <QRegularExpression>

AgentEndpoints AgentEndpoints::defaults()
{
    return AgentEndpoints({{QStringLiteral("grok-*"), QUrl(QStringLiteral("https://api.x.ai/v1"))}});
}

AgentEndpoints::AgentEndpoints(QList<AgentEndpoint> entries) : m_entries(std::move(entries)) {}

std::optional<QUrl> AgentEndpoints::baseUrlFor(const QString &model) const
{
    for (const AgentEndpoint &entry : m_entries) {
        if (globMatches(entry.modelGlob, model))
            return entry.baseUrl;
    }
    return std::nullopt;
}

bool AgentEndpoints::globMatches(const QString &glob, const QString &name)
{
    // Built by hand: Qt's wildcard conversion treats '/' as a path separator, and model
    // names such as "meta-llama/llama-3" contain one.
    QString pattern;
    for (const QChar c : glob) {
        if (c == u'*')
            pattern += QStringLiteral(".*");
        else if (c == u'?')
            pattern += u'.';
        else
            pattern += QRegularExpression::escape(QString(c));
    }
    return QRegularExpression(QRegularExpression::anchoredPattern(pattern)).match(name).hasMatch();
}
