#pragma once

#include "directoryindex.h"
#include "lintfinding.h"
#include "row.h"

#include <QList>
#include <QString>

// What a rule is, for the lint panel's legend and `capdeskctl lint`'s documentation.
struct RuleInfo
{
    QString code;     // "H010"
    QString name;     // "doc_what"
    QString severity; // "error" | "warning"
    QString field;    // the column the rule reads first
    QString summary;  // one line: what a compliant row has
};

// Runs every hygiene rule (SPEC §8) on one row. The rules live one per function in the
// themed files under dispatch/lint/ and are listed in one table (LintRules), so adding a
// rule touches no switch here. Thread-safe: lint() only reads the index and the row.
class Linter final
{
public:
    // localEngine: rules that only hold for the local engine (H022, the builtin table)
    // are skipped for a remote directory, whose server may ship other builtins.
    explicit Linter(const DirectoryIndex &index, bool localEngine = true);

    QList<LintFinding> lint(const Row &row) const;

    // Compliant means no finding of severity error (SPEC §8).
    static bool isCompliant(const QList<LintFinding> &findings);
    static QList<RuleInfo> rules();

private:
    const DirectoryIndex &m_index;
    bool m_localEngine = true;
};
