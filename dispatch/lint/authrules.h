#pragma once

#include "lintrule.h"

#include <QList>

namespace AuthRules {
void add(QList<LintRule> &rules);
} // namespace AuthRules
