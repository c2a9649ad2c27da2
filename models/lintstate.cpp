#include "lintstate.h"

LintState::LintState(QObject *parent) : QObject(parent) {}

void LintState::replaceAll(const QHash<QString, QList<LintFinding>> &findingsByKey)
{
    m_findings.clear();
    for (auto it = findingsByKey.cbegin(); it != findingsByKey.cend(); ++it) {
        if (!it.value().isEmpty())
            m_findings.insert(it.key(), it.value());
    }
    emit reset();
}

void LintState::setFindings(const QString &key, const QList<LintFinding> &findings)
{
    const auto it = m_findings.constFind(key);
    const bool known = it != m_findings.constEnd();
    if (findings.isEmpty() ? !known : known && *it == findings)
        return;
    if (findings.isEmpty())
        m_findings.remove(key);
    else
        m_findings.insert(key, findings);
    emit rowChanged(key);
}

void LintState::remove(const QString &key)
{
    setFindings(key, {});
}

void LintState::clear()
{
    m_findings.clear();
    emit reset();
}

LintState::Lint LintState::levelOf(const QList<LintFinding> &findings)
{
    Lint level = Lint::Clean;
    for (const LintFinding &finding : findings) {
        if (finding.isError())
            return Lint::Error;
        level = Lint::Warning;
    }
    return level;
}
