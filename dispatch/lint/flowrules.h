#pragma once

#include "lintrule.h"

#include <QList>

namespace FlowRules {
void add(QList<LintRule> &rules);
} // namespace FlowRules
