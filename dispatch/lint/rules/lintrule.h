#pragma once

#include "dispatch/flows/flowparser.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/ruleinfo.h"
#include "dispatch/row/doclines.h"
#include "dispatch/row/row.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonDocument>
#include <QList>
#include <QString>
#include <QStringList>

// What a row-local rule sees: the row and what several rules read from it, each parsed
// once per row for all of them.
struct LintContext
{
    const Row &row;
    const DocLines &docs;
    bool localEngine = true;
    const FlowParseResult *flow = nullptr; // parsed once for a flow row, else null
    // The $N and $N+ placeholders of the target (http) and payload; none for an agent.
    const QList<TemplatePlaceholder> &argumentPlaceholders;
    // `examples` as Qt's parser reads it (null when the field is empty).
    const QJsonDocument &examplesJson;
};

// What a link rule sees: a row's edges and the index of the whole directory. Link rules
// read nothing else of the row, so after another row changes they are re-checked from the
// index alone, without reading or parsing the rows that point at it.
struct LintLinks
{
    const QString &key;
    const QStringList &flowKeys; // the steps of a flow that parses, else empty
    const QStringList &includes;
    const DirectoryIndex &index;
};

// One violation: how to fix it, and the field when it is not the rule's own (H031 names
// the field the secret was found in).
struct LintHit
{
    QString message;
    QString field = {};
};

// One rule: its description and a check returning one hit per violation (none when the
// row complies). A rule has exactly one check: `check` when it reads only the row,
// `linkCheck` when it depends on other rows. Checks are pure functions of their input.
struct LintRule
{
    using Check = QList<LintHit> (*)(const LintContext &context);
    using LinkCheck = QList<LintHit> (*)(const LintLinks &links);

    RuleInfo info;
    Check check = nullptr;
    LinkCheck linkCheck = nullptr;
};
