#include "lintrules.h"

#include "authrules.h"
#include "docrules.h"
#include "flowrules.h"
#include "includerules.h"
#include "jsonrules.h"
#include "keyrules.h"
#include "targetrules.h"
#include "templaterules.h"

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
