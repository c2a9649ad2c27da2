#include "dispatch/runners/agentendpoints.h"

#include <QRegularExpression>

AgentEndpoints AgentEndpoints::defaults()
{
    return AgentEndpoints({{QStringLiteral("grok-*"), QUrl(QStringLiteral("https://api.x.ai/v1"))}});
}

AgentEndpoints AgentEndpoints::fromSettings(QSettings &settings)
{
    QList<AgentEndpoint> entries;
    const int count = settings.beginReadArray(QStringLiteral("agentEndpoints"));
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        const QString glob = settings.value(QStringLiteral("model")).toString();
        const QUrl url(settings.value(QStringLiteral("baseUrl")).toString());
        // A hand-edited entry that is not an absolute URL would send prompts nowhere sensible.
        if (!glob.isEmpty() && url.isValid() && !url.isRelative())
            entries.append({glob, url});
    }
    settings.endArray();
    return entries.isEmpty() ? defaults() : AgentEndpoints(entries);
}

void AgentEndpoints::save(QSettings &settings) const
{
    settings.beginWriteArray(QStringLiteral("agentEndpoints"), int(m_entries.size()));
    for (int i = 0; i < m_entries.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("model"), m_entries.at(i).modelGlob);
        settings.setValue(QStringLiteral("baseUrl"), m_entries.at(i).baseUrl.toString());
    }
    settings.endArray();
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
