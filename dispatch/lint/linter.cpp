#include "dispatch/lint/linter.h"

#include "dispatch/flows/flowparser.h"
#include "dispatch/lint/rules/lintrules.h"
#include "dispatch/lint/rules/templaterules.h"
#include "dispatch/row/doclines.h"

#include <QSet>

#include <algorithm>

namespace {

LintFinding findingOf(const QString &key, const LintRule &rule, const LintHit &hit)
{
    return {key,
            rule.info.code,
            rule.info.name,
            rule.info.severity,
            hit.field.isEmpty() ? rule.info.field : hit.field,
            hit.message};
}

bool isLinkCode(const QString &code)
{
    static const QSet<QString> codes = [] {
        QSet<QString> set;
        for (const LintRule &rule : LintRules::all()) {
            if (rule.linkCheck)
                set.insert(rule.info.code);
        }
        return set;
    }();
    return codes.contains(code);
}

} // namespace

Linter::Linter(const DirectoryIndex &index, bool localEngine) : m_index(index), m_localEngine(localEngine) {}

QList<LintFinding> Linter::lint(const Row &row) const
{
    return linked(row.key, lintOwn(row));
}

RowLint Linter::lintOwn(const Row &row) const
{
    const DocLines docs = DocLines::parse(row.content);
    std::optional<FlowParseResult> flow;
    if (row.type == QLatin1String("flow"))
        flow = FlowParser::parse(row.content);
    const QList<TemplatePlaceholder> placeholders = TemplateRules::argumentPlaceholders(row, docs);
    const QJsonDocument examples =
        row.examples.isEmpty() ? QJsonDocument() : QJsonDocument::fromJson(row.examples.toUtf8());
    const LintContext context{row, docs, m_localEngine, flow ? &*flow : nullptr, placeholders, examples};

    RowLint own;
    for (const LintRule &rule : LintRules::all()) {
        if (!rule.check)
            continue;
        for (const LintHit &hit : rule.check(context))
            own.findings.append(findingOf(row.key, rule, hit));
    }
    if (flow && flow->ok())
        own.flowKeys = flow->plan.keys();
    own.includes = DirectoryIndex::includesOf(row);
    return own;
}

QList<LintFinding> Linter::linked(const QString &key, RowLint own) const
{
    addLinks(key, own.flowKeys, own.includes, own.findings);
    return std::move(own.findings);
}

QList<LintFinding> Linter::relink(const QString &key, const QList<LintFinding> &previous) const
{
    QList<LintFinding> findings;
    for (const LintFinding &finding : previous) {
        if (!isLinkCode(finding.code))
            findings.append(finding);
    }
    addLinks(key, m_index.flowKeys(key), m_index.includes(key), findings);
    return findings;
}

void Linter::addLinks(const QString &key, const QStringList &flowKeys, const QStringList &includes,
                      QList<LintFinding> &findings) const
{
    if (flowKeys.isEmpty() && includes.isEmpty())
        return; // no edges: no link rule can find anything
    const qsizetype own = findings.size();
    const LintLinks links{key, flowKeys, includes, m_index};
    for (const LintRule &rule : LintRules::all()) {
        if (!rule.linkCheck)
            continue;
        for (const LintHit &hit : rule.linkCheck(links))
            findings.append(findingOf(key, rule, hit));
    }
    // Rules run in code order and each rule's hits stay together, so a stable sort by code
    // interleaves the two kinds exactly as one pass over the rule table would.
    if (own > 0 && findings.size() > own) {
        std::stable_sort(findings.begin(), findings.end(),
                         [](const LintFinding &a, const LintFinding &b) { return a.code < b.code; });
    }
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
