#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace DocRules {
void add(QList<LintRule> &rules);
} // namespace DocRules
