#include "dispatch/invoke/worldeffects.h"

#include "dispatch/flows/flowparser.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace {

// GET and HEAD read; anything else, including a method no runner knows, is taken as a write.
bool httpWrites(const QString &target, QString *request)
{
    const QString trimmed = target.trimmed();
    const qsizetype space = trimmed.indexOf(u' ');
    const QString method = (space < 0 ? trimmed : trimmed.left(space)).toUpper();
    *request = trimmed;
    return method != "GET"_L1 && method != "HEAD"_L1;
}

void collect(const Row &row, const WorldEffects::RowLookup &lookup, int depthLeft, QSet<QString> &seen,
             QList<WorldEffect> &effects)
{
    if (seen.contains(row.key))
        return;
    seen.insert(row.key);
    effects.append(WorldEffects::ofRow(row));
    if (row.type != "flow"_L1 || depthLeft <= 0)
        return;
    const FlowParseResult parsed = FlowParser::parse(row.content);
    for (const QString &key : parsed.plan.keys()) {
        if (const std::optional<Row> step = lookup(key))
            collect(*step, lookup, depthLeft - 1, seen, effects);
    }
}

} // namespace

QList<WorldEffect> WorldEffects::ofRow(const Row &row)
{
    QList<WorldEffect> effects;
    QString request;
    if (row.type == "http"_L1 && httpWrites(row.target, &request))
        effects.append({row.key, request});
    if (row.type == "agent"_L1)
        effects.append({row.key, u"asks model %1"_s.arg(row.target.trimmed())});
    if (row.sensitive)
        effects.append({row.key, u"marked sensitive"_s});
    return effects;
}

QList<WorldEffect> WorldEffects::of(const Row &row, const RowLookup &lookup, int maxDepth)
{
    QList<WorldEffect> effects;
    QSet<QString> seen;
    collect(row, lookup, maxDepth, seen, effects);
    return effects;
}
