#include "dispatch/lint/rules/lintrules.h"

#include "dispatch/lint/rules/authrules.h"
#include "dispatch/lint/rules/docrules.h"
#include "dispatch/lint/rules/flowrules.h"
#include "dispatch/lint/rules/includerules.h"
#include "dispatch/lint/rules/jsonrules.h"
#include "dispatch/lint/rules/keyrules.h"
#include "dispatch/lint/rules/targetrules.h"
#include "dispatch/lint/rules/templaterules.h"

#include <algorithm>

namespace LintRules {

const QList<LintRule> &all()
{
    static const QList<LintRule> rules = [] {
        QList<LintRule> list;
        KeyRules::add(list);
        DocRules::add(list);
        TargetRules::add(list);
        FlowRules::add(list);
        AuthRules::add(list);
        TemplateRules::add(list);
        JsonRules::add(list);
        IncludeRules::add(list);
        std::sort(list.begin(), list.end(),
                  [](const LintRule &a, const LintRule &b) { return a.info.code < b.info.code; });
        return list;
    }();
    return rules;
}

} // namespace LintRules
