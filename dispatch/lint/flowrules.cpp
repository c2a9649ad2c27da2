#include "flowrules.h"

namespace {

QList<LintHit> flowParse(const LintContext &context)
{
    if (!context.flow)
        return {};
    if (!context.flow->ok())
        return {{QStringLiteral("The flow does not parse at %1; steps are KEY: body joined by '>'.")
                     .arg(context.flow->error->describe())}};
    if (context.flow->plan.steps.isEmpty())
        return {{QStringLiteral("Write the flow's steps below the doc lines: KEY: body > NEXT_KEY: $PREV.")}};
    return {};
}

QList<LintHit> flowKey(const LintContext &context)
{
    if (!context.flow || !context.flow->ok())
        return {};
    QList<LintHit> hits;
    for (const QString &key : context.flow->plan.keys()) {
        if (key != context.row.key && !context.index.contains(key))
            hits.append({QStringLiteral("Step %1 names no row; create it or fix the key.").arg(key)});
    }
    return hits;
}

QList<LintHit> flowCycle(const LintContext &context)
{
    if (!context.flow || !context.flow->ok())
        return {};
    if (!context.index.reaches(DirectoryIndex::Edge::Flow, context.flow->plan.keys(), context.row.key))
        return {};
    return {{QStringLiteral("The flow reaches %1 again through its steps; remove the step that loops back.")
                 .arg(context.row.key)}};
}

LintRule rule(const char *code, const char *name, const char *summary, LintRule::Check check)
{
    return {{QLatin1String(code), QLatin1String(name), QStringLiteral("error"), QStringLiteral("content"),
             QString::fromUtf8(summary)},
            check};
}

} // namespace

namespace FlowRules {

void add(QList<LintRule> &rules)
{
    rules.append(rule("H023", "flow_parse", "a flow payload parses", flowParse));
    rules.append(rule("H024", "flow_key", "every flow step names an existing row", flowKey));
    rules.append(rule("H025", "flow_cycle", "no flow reaches itself", flowCycle));
}

} // namespace FlowRules
