#include "directoryindex.h"

#include "doclines.h"
#include "flowparser.h"

DirectoryIndex DirectoryIndex::build(const QList<Row> &rows)
{
    DirectoryIndex index;
    index.m_keys.reserve(rows.size());
    for (const Row &row : rows)
        index.update(row);
    return index;
}

void DirectoryIndex::update(const Row &row)
{
    m_keys.insert(row.key);
    link(Edge::Flow, row.key, flowKeysOf(row));
    link(Edge::Include, row.key, includesOf(row));
}

void DirectoryIndex::remove(const QString &key)
{
    m_keys.remove(key);
    unlink(Edge::Flow, key);
    unlink(Edge::Include, key);
}

QStringList DirectoryIndex::referencing(const QString &key) const
{
    QStringList keys = m_referencedBy.value(key).values();
    keys.sort();
    return keys;
}

bool DirectoryIndex::reaches(Edge edge, const QStringList &start, const QString &target) const
{
    const QHash<QString, QStringList> &edges = m_edges[int(edge)];
    QSet<QString> seen;
    QStringList pending = start;
    while (!pending.isEmpty()) {
        const QString key = pending.takeLast();
        if (key == target)
            return true;
        if (seen.contains(key))
            continue;
        seen.insert(key);
        pending += edges.value(key);
    }
    return false;
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
    for (const QString &part : row.includes.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = part.trimmed();
        if (!key.isEmpty())
            keys.append(key);
    }
    return keys;
}

void DirectoryIndex::link(Edge edge, const QString &key, const QStringList &targets)
{
    unlink(edge, key);
    if (targets.isEmpty())
        return;
    m_edges[int(edge)].insert(key, targets);
    for (const QString &target : targets)
        m_referencedBy[target].insert(key);
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
        it->remove(key);
        if (it->isEmpty())
            m_referencedBy.erase(it);
    }
}
