#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace TargetRules {
void add(QList<LintRule> &rules);
} // namespace TargetRules
