#include "dispatch/lint/rules/flowrules.h"

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

QList<LintHit> flowKey(const LintLinks &links)
{
    QList<LintHit> hits;
    for (const QString &key : links.flowKeys) {
        if (key != links.key && !links.index.contains(key))
            hits.append({QStringLiteral("Step %1 names no row; create it or fix the key.").arg(key)});
    }
    return hits;
}

QList<LintHit> flowCycle(const LintLinks &links)
{
    if (links.flowKeys.isEmpty()
        || !links.index.reaches(DirectoryIndex::Edge::Flow, links.flowKeys, links.key))
        return {};
    return {{QStringLiteral("The flow reaches %1 again through its steps; remove the step that loops back.")
                 .arg(links.key)}};
}

RuleInfo info(const char *code, const char *name, const char *summary)
{
    return {QLatin1String(code), QLatin1String(name), QStringLiteral("error"), QStringLiteral("content"),
            QString::fromUtf8(summary)};
}

} // namespace

namespace FlowRules {

void add(QList<LintRule> &rules)
{
    rules.append({info("H023", "flow_parse", "a flow payload parses"), flowParse});
    rules.append({info("H024", "flow_key", "every flow step names an existing row"), nullptr, flowKey});
    rules.append({info("H025", "flow_cycle", "no flow reaches itself"), nullptr, flowCycle});
}

} // namespace FlowRules
