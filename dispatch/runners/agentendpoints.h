#pragma once

#include <QList>
#include <QSettings>
#include <QString>
#include <QUrl>

#include <optional>

// Which OpenAI-compatible base URL serves which model (SPEC §3 agent): a list of model
// name globs ('*' any run of characters, '?' one character), first match wins.
struct AgentEndpoint
{
    QString modelGlob; // "grok-*"
    QUrl baseUrl; // "https://api.x.ai/v1"; the request goes to {base}/chat/completions
};

class AgentEndpoints final
{
public:
    // grok-* → https://api.x.ai/v1.
    static AgentEndpoints defaults();
    // The owner's table from QSettings group "agentEndpoints" (an array of {model, baseUrl}),
    // the defaults when none is saved. GUI and capdeskctl read the same settings.
    static AgentEndpoints fromSettings(QSettings &settings);
    void save(QSettings &settings) const;

    explicit AgentEndpoints(QList<AgentEndpoint> entries = {});

    const QList<AgentEndpoint> &entries() const { return m_entries; }
    std::optional<QUrl> baseUrlFor(const QString &model) const;

    static bool globMatches(const QString &glob, const QString &name);

private:
    QList<AgentEndpoint> m_entries;
};
