#pragma once

#include "dispatch/lint/rules/lintrule.h"

#include <QList>

namespace TemplateRules {
void add(QList<LintRule> &rules);
// The argument placeholders ($N, $N+) the owner wrote in the target and payload, which
// the linter reads once per row for the rules here.
QList<TemplatePlaceholder> argumentPlaceholders(const Row &row, const DocLines &docs);
} // namespace TemplateRules
