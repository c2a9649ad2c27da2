#include "dispatch/lint/rules/directoryindex.h"

#include "dispatch/flows/flowparser.h"
#include "dispatch/row/doclines.h"

#include <QVarLengthArray>

DirectoryIndex DirectoryIndex::build(const QList<Row> &rows)
{
    DirectoryIndex index;
    index.m_keys.reserve(rows.size());
    for (const Row &row : rows)
        index.update(row);
    return index;
}

void DirectoryIndex::addKeys(const QList<Row> &rows)
{
    m_keys.reserve(m_keys.size() + rows.size());
    for (const Row &row : rows)
        m_keys.insert(row.key);
}

bool DirectoryIndex::update(const Row &row)
{
    return update(row.key, flowKeysOf(row), includesOf(row));
}

bool DirectoryIndex::update(const QString &key, const QStringList &flowKeys, const QStringList &includes)
{
    const qsizetype known = m_keys.size();
    m_keys.insert(key);
    const bool added = m_keys.size() > known;
    // A key new to the index has no edges to drop, and most rows have none to add: building
    // the index of a large directory then costs one insert per row.
    if (added && flowKeys.isEmpty() && includes.isEmpty())
        return true;
    const bool flowsChanged = link(Edge::Flow, key, flowKeys);
    const bool includesChanged = link(Edge::Include, key, includes);
    return added || flowsChanged || includesChanged;
}

bool DirectoryIndex::remove(const QString &key)
{
    unlink(Edge::Flow, key);
    unlink(Edge::Include, key);
    return m_keys.remove(key);
}

QStringList DirectoryIndex::referencing(const QString &key) const
{
    QStringList keys = m_referencedBy.value(key);
    keys.sort();
    return keys;
}

bool DirectoryIndex::reaches(Edge edge, const QStringList &start, const QString &target) const
{
    const QHash<QString, QStringList> &edges = m_edges[int(edge)];
    QSet<QString> seen;
    QVarLengthArray<QString, 16> pending(start.cbegin(), start.cend());
    while (!pending.isEmpty()) {
        const QString key = std::move(pending.last());
        pending.removeLast();
        if (key == target)
            return true;
        // Most keys lead nowhere (an fn step, an include without includes): no need to
        // remember them.
        const auto next = edges.constFind(key);
        if (next == edges.cend() || seen.contains(key))
            continue;
        seen.insert(key);
        pending.append(next->constData(), next->size());
    }
    return false;
}

QSet<QString> DirectoryIndex::reaching(const QSet<QString> &keys) const
{
    QSet<QString> found;
    QStringList pending(keys.cbegin(), keys.cend());
    while (!pending.isEmpty()) {
        const auto referrers = m_referencedBy.constFind(pending.takeLast());
        if (referrers == m_referencedBy.cend())
            continue;
        for (const QString &referrer : *referrers) {
            if (!found.contains(referrer)) {
                found.insert(referrer);
                pending.append(referrer);
            }
        }
    }
    return found;
}

QStringList DirectoryIndex::flowKeysOf(const Row &row)
{
    if (row.type != QLatin1String("flow"))
        return {};
    const FlowParseResult parsed = FlowParser::parse(row.content);
    return parsed.ok() ? parsed.plan.keys() : QStringList{};
}

QStringList DirectoryIndex::includesOf(const Row &row)
{
    QStringList keys;
    if (row.includes.isEmpty())
        return keys;
    for (const QString &part : row.includes.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = part.trimmed();
        if (!key.isEmpty())
            keys.append(key);
    }
    return keys;
}

bool DirectoryIndex::link(Edge edge, const QString &key, const QStringList &targets)
{
    QHash<QString, QStringList> &edges = m_edges[int(edge)];
    const auto old = edges.constFind(key);
    if (old == edges.cend() ? targets.isEmpty() : *old == targets)
        return false;
    if (old != edges.cend())
        unlink(edge, key);
    if (!targets.isEmpty()) {
        edges.insert(key, targets);
        const QStringList other = m_edges[1 - int(edge)].value(key);
        for (qsizetype i = 0; i < targets.size(); ++i) {
            const QString &target = targets.at(i);
            // Named twice, or already through the other kind of edge: listed already.
            if (targets.indexOf(target) < i || other.contains(target))
                continue;
            m_referencedBy[target].append(key);
        }
    }
    return true;
}

void DirectoryIndex::unlink(Edge edge, const QString &key)
{
    const QStringList old = m_edges[int(edge)].take(key);
    const QStringList &other = m_edges[1 - int(edge)].value(key);
    for (const QString &target : old) {
        // Still referenced through the other kind of edge: keep the reverse entry.
        if (other.contains(target))
            continue;
        auto it = m_referencedBy.find(target);
        if (it == m_referencedBy.end())
            continue;
        it->removeOne(key);
        if (it->isEmpty())
            m_referencedBy.erase(it);
    }
}
