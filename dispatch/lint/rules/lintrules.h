#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

// The one table of hygiene rules, in code order. Each themed file (docrules, targetrules,
// …) adds its rules here, so a new rule changes one themed file only.
namespace LintRules {
const QList<LintRule> &all();
} // namespace LintRules
