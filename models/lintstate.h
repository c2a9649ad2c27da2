#pragma once

#include "dispatch/lint/rules/lintfinding.h"
#include "models/summarytable.h"

#include <QHash>
#include <QList>
#include <QObject>

// The directory's current hygiene findings by key, as the lint column, the lint panel and
// the row editor show them. Only rows with findings are kept: over 100,000 rows most are
// clean, and a clean row costs nothing here.
class LintState final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintState)

public:
    using Lint = SummaryTable::Lint;

    explicit LintState(QObject *parent = nullptr);

    // A whole lint-all's answer.
    void replaceAll(const QHash<QString, QList<LintFinding>> &findingsByKey);
    // One row re-linted; an empty list means clean.
    void setFindings(const QString &key, const QList<LintFinding> &findings);
    void remove(const QString &key);
    void clear();

    QList<LintFinding> findings(const QString &key) const { return m_findings.value(key); }
    const QHash<QString, QList<LintFinding>> &all() const { return m_findings; }
    // Rows with findings, including warnings only.
    qsizetype rowsWithFindings() const { return m_findings.size(); }

    static Lint levelOf(const QList<LintFinding> &findings);

signals:
    void reset();
    void rowChanged(const QString &key);

private:
    QHash<QString, QList<LintFinding>> m_findings;
};
