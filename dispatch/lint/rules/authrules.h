#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace AuthRules {
void add(QList<LintRule> &rules);
} // namespace AuthRules
