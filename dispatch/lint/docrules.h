#pragma once

#include "lintrule.h"

#include <QList>

namespace DocRules {
void add(QList<LintRule> &rules);
} // namespace DocRules
