#pragma once

#include "lintrule.h"

#include <QList>

namespace TemplateRules {
void add(QList<LintRule> &rules);
} // namespace TemplateRules
