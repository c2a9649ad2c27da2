#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace IncludeRules {
void add(QList<LintRule> &rules);
} // namespace IncludeRules
