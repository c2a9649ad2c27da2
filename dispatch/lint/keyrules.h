#pragma once

#include "lintrule.h"

#include <QList>

namespace KeyRules {
void add(QList<LintRule> &rules);
} // namespace KeyRules
