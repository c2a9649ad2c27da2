#pragma once

#include "directoryindex.h"
#include "lintfinding.h"

#include <QList>
#include <QString>

class DirectoryDocument;

// What the hygiene gate (SPEC §8) would refuse if the document's drafts were saved now,
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
    // `index` is the directory as it will be after the save (drafts included).
    static QList<SaveRefusal> explain(const DirectoryDocument &document, const DirectoryIndex &index);
    // A message for the user: one paragraph per refused row, one line per failing rule.
    static QString describe(const QList<SaveRefusal> &refusals);
};
