#include "models/lintstate.h"

#include "dispatch/core/poolrelease.h"

#include <algorithm>

LintState::LintState(QObject *parent) : QObject(parent) {}

void LintState::replaceAll(const QHash<QString, QList<LintFinding>> &findingsByKey)
{
    // A lint-all's answer holds only rows with findings: share it instead of copying
    // tens of thousands of entries, and free the old table off this thread.
    const bool allFound = std::none_of(findingsByKey.cbegin(), findingsByKey.cend(),
                                       [](const QList<LintFinding> &findings) { return findings.isEmpty(); });
    QHash<QString, QList<LintFinding>> findings;
    if (allFound) {
        findings = findingsByKey;
    } else {
        for (auto it = findingsByKey.cbegin(); it != findingsByKey.cend(); ++it) {
            if (!it.value().isEmpty())
                findings.insert(it.key(), it.value());
        }
    }
    releaseOnPool(std::exchange(m_findings, std::move(findings)));
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
    releaseOnPool(std::exchange(m_findings, {}));
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
