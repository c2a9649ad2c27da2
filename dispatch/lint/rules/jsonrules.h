#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace JsonRules {
void add(QList<LintRule> &rules);
} // namespace JsonRules
