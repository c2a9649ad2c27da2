#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/row/row.h"

#include <QList>

// The save gate of SPEC §8, the one place every front end (CLI, GUI Save, REST server)
// asks. A refusal is StoreError::Invalid whose message names every failing rule and whose
// `details` holds the findings as JSON, which the server answers with
// 422 {"error":"hygiene","findings":details}.
class HygieneGate final
{
public:
    // Create and replace: the row must be compliant.
    static StoreError checkCreate(const Row &row, const DirectoryIndex &index);
    // Patch (and the GUI's Replace): refused only when `before` was compliant and `after`
    // is not, so rows older than the rules stay editable.
    static StoreError checkPatch(const Row &before, const Row &after, const DirectoryIndex &index);

    // An import: the error findings of every imported row, judged against the directory as
    // it would be after the import (`existing` plus `imported`), so rows may name each other.
    // `localEngine` as for Linter.
    static QList<LintFinding> importFindings(QList<Row> existing, const QList<Row> &imported,
                                             bool localEngine);

    // The error findings that refuse `row` (empty when it is compliant).
    static QList<LintFinding> refusalFindings(const Row &row, const DirectoryIndex &index);
};
