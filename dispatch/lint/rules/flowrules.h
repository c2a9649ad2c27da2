#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace FlowRules {
void add(QList<LintRule> &rules);
} // namespace FlowRules
