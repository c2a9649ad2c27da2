#pragma once

#include <QString>

// What a rule is, for the lint panel's legend and `capdeskctl lint`'s documentation.
struct RuleInfo
{
    QString code; // "H010"
    QString name; // "doc_what"
    QString severity; // "error" | "warning"
    QString field; // the column the rule reads first
    QString summary; // one line: what a compliant row has
};
