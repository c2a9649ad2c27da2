#pragma once

#include "directoryindex.h"
#include "doclines.h"
#include "flowparser.h"
#include "linter.h"
#include "row.h"

#include <QList>
#include <QString>
#include <QStringList>

// What a rule sees: the row, its doc lines parsed once for all rules, and the index.
struct LintContext
{
    const Row &row;
    const DocLines &docs;
    const DirectoryIndex &index;
    bool localEngine = true;
    const FlowParseResult *flow = nullptr; // parsed once for a flow row, else null
};

// One violation: how to fix it, and the field when it is not the rule's own (H031 names
// the field the secret was found in).
struct LintHit
{
    QString message;
    QString field = {};
};

// One rule: its description and a check returning one hit per violation (none when the
// row complies). Checks are pure functions of the context.
struct LintRule
{
    using Check = QList<LintHit> (*)(const LintContext &context);

    RuleInfo info;
    Check check = nullptr;
};
