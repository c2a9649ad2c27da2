#include "includerules.h"

namespace {

QList<LintHit> includesKey(const LintContext &context)
{
    QList<LintHit> hits;
    for (const QString &key : DirectoryIndex::includesOf(context.row)) {
        if (key != context.row.key && !context.index.contains(key))
            hits.append({QStringLiteral("Include %1 names no row; create it or remove it from includes.").arg(key)});
    }
    return hits;
}

QList<LintHit> includesCycle(const LintContext &context)
{
    const QStringList start = DirectoryIndex::includesOf(context.row);
    if (!context.index.reaches(DirectoryIndex::Edge::Include, start, context.row.key))
        return {};
    return {{QStringLiteral("The includes reach %1 again; remove the include that leads back to it.")
                 .arg(context.row.key)}};
}

} // namespace

namespace IncludeRules {

void add(QList<LintRule> &rules)
{
    rules.append({{QStringLiteral("H060"), QStringLiteral("includes_key"), QStringLiteral("error"),
                   QStringLiteral("includes"), QStringLiteral("every include names an existing row")},
                  includesKey});
    rules.append({{QStringLiteral("H061"), QStringLiteral("includes_cycle"), QStringLiteral("error"),
                   QStringLiteral("includes"), QStringLiteral("includes do not reach themselves")},
                  includesCycle});
}

} // namespace IncludeRules
