#include "dispatch/lint/rules/includerules.h"

namespace {

QList<LintHit> includesKey(const LintLinks &links)
{
    QList<LintHit> hits;
    for (const QString &key : links.includes) {
        if (key != links.key && !links.index.contains(key))
            hits.append(
                {QStringLiteral("Include %1 names no row; create it or remove it from includes.").arg(key)});
    }
    return hits;
}

QList<LintHit> includesCycle(const LintLinks &links)
{
    if (links.includes.isEmpty()
        || !links.index.reaches(DirectoryIndex::Edge::Include, links.includes, links.key))
        return {};
    return {{QStringLiteral("The includes reach %1 again; remove the include that leads back to it.")
                 .arg(links.key)}};
}

} // namespace

namespace IncludeRules {

void add(QList<LintRule> &rules)
{
    rules.append({{QStringLiteral("H060"), QStringLiteral("includes_key"), QStringLiteral("error"),
                   QStringLiteral("includes"), QStringLiteral("every include names an existing row")},
                  nullptr,
                  includesKey});
    rules.append({{QStringLiteral("H061"), QStringLiteral("includes_cycle"), QStringLiteral("error"),
                   QStringLiteral("includes"), QStringLiteral("includes do not reach themselves")},
                  nullptr,
                  includesCycle});
}

} // namespace IncludeRules
