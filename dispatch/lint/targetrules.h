#pragma once

#include "lintrule.h"

#include <QList>

namespace TargetRules {
void add(QList<LintRule> &rules);
} // namespace TargetRules
