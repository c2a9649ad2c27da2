#pragma once

#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/lint/rules/ruleinfo.h"
#include "dispatch/row/row.h"

#include <QList>
#include <QString>

// One row's findings from the rules that read only the row, with the edges the link rules
// read. Lint-all lints every row this way first, builds the index from the edges, then
// links the rows that have edges.
struct RowLint
{
    QList<LintFinding> findings;
    QStringList flowKeys; // the steps of a flow that parses
    QStringList includes;
};

// Runs every hygiene rule (SPEC §8) on one row. The rules live one per function in the
// themed files under dispatch/lint/ and are listed in one table (LintRules), so adding a
// rule touches no switch here. Thread-safe: lint() only reads the index and the row.
//
// Most rules read only the row. The link rules (flow keys, includes, cycles) read the
// row's edges and the index, so when a row changes, the rows pointing at it only need
// relink(), not a full lint.
class Linter final
{
public:
    // localEngine: rules that only hold for the local engine (H022, the builtin table)
    // are skipped for a remote directory, whose server may ship other builtins.
    explicit Linter(const DirectoryIndex &index, bool localEngine = true);

    // Findings in rule-code order.
    QList<LintFinding> lint(const Row &row) const;
    // lint() in two steps: the row-local rules (the index is not read), then the link
    // rules against the index.
    RowLint lintOwn(const Row &row) const;
    QList<LintFinding> linked(const QString &key, RowLint own) const;
    // The findings of the row `key` after rows it points at changed: `previous` (its
    // findings so far, from lint() or relink()) with the link rules checked again against
    // the index, which must hold the row's current edges. The row itself is not read: its
    // own findings cannot have changed.
    QList<LintFinding> relink(const QString &key, const QList<LintFinding> &previous) const;

    // Compliant means no finding of severity error (SPEC §8).
    static bool isCompliant(const QList<LintFinding> &findings);
    static QList<RuleInfo> rules();

private:
    // Appends the link rules' findings and restores rule-code order.
    void addLinks(const QString &key, const QStringList &flowKeys, const QStringList &includes,
                  QList<LintFinding> &findings) const;

    const DirectoryIndex &m_index;
    bool m_localEngine = true;
};
