#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/row/row.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

// One unsaved edit as the save would write it: the stored row (none for a new row) and the
// draft (none for a delete).
struct SaveDraft
{
    QString key;
    std::optional<Row> before;
    std::optional<Row> after;
};

// What the hygiene gate (SPEC §8) would refuse if the drafts were saved now,
// asked before the save so the user reads which rules fail rather than a bare error. A new
// row must be compliant; an existing one is refused only when the edit makes a compliant
// row non-compliant, the same judgement HygieneGate makes on the real save.
struct SaveRefusal
{
    QString key;
    bool existing = false; // a stored row: refused because it was compliant before
    QList<LintFinding> findings; // the error findings that refuse it
};

class SaveExplainer final
{
public:
    // `index` is the directory as last linted; the drafts are laid over a copy of it, so
    // rows edited since (a flow and the new row it names) are judged as they will be saved.
    static QList<SaveRefusal> explain(const QList<SaveDraft> &drafts, const DirectoryIndex &index);
    // The same form for a refusal the store made itself (another writer changed a row the
    // rules read, or a server judged differently): its details' findings, row by row.
    // Empty when the error is not a hygiene refusal with findings.
    // `isStored` tells a stored row (refused for losing compliance) from a new one.
    static QList<SaveRefusal> fromStoreError(const StoreError &error,
                                             const std::function<bool(const QString &key)> &isStored);
    // A message for the user: one paragraph per refused row, one line per failing rule
    // (code, name, field and how to fix it).
    static QString describe(const QList<SaveRefusal> &refusals);
};
