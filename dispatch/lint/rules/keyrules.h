#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace KeyRules {
void add(QList<LintRule> &rules);
} // namespace KeyRules
