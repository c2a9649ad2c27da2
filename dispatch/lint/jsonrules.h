#pragma once

#include "lintrule.h"

#include <QList>

namespace JsonRules {
void add(QList<LintRule> &rules);
} // namespace JsonRules
