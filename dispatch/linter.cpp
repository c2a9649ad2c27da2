#include "linter.h"

#include "doclines.h"
#include "flowparser.h"
#include "lint/lintrules.h"

#include <algorithm>

Linter::Linter(const DirectoryIndex &index, bool localEngine) : m_index(index), m_localEngine(localEngine) {}

QList<LintFinding> Linter::lint(const Row &row) const
{
    const DocLines docs = DocLines::parse(row.content);
    std::optional<FlowParseResult> flow;
    if (row.type == QLatin1String("flow"))
        flow = FlowParser::parse(row.content);
    const LintContext context{row, docs, m_index, m_localEngine, flow ? &*flow : nullptr};
    QList<LintFinding> findings;
    for (const LintRule &rule : LintRules::all()) {
        for (const LintHit &hit : rule.check(context)) {
            const QString &field = hit.field.isEmpty() ? rule.info.field : hit.field;
            findings.append({row.key, rule.info.code, rule.info.name, rule.info.severity, field, hit.message});
        }
    }
    return findings;
}

bool Linter::isCompliant(const QList<LintFinding> &findings)
{
    return std::none_of(findings.cbegin(), findings.cend(), [](const LintFinding &f) { return f.isError(); });
}

QList<RuleInfo> Linter::rules()
{
    QList<RuleInfo> infos;
    for (const LintRule &rule : LintRules::all())
        infos.append(rule.info);
    return infos;
}
