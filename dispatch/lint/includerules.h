#pragma once

#include "lintrule.h"

#include <QList>

namespace IncludeRules {
void add(QList<LintRule> &rules);
} // namespace IncludeRules
