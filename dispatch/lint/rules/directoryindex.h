#pragma once

#include "dispatch/row/row.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

// What the whole-directory hygiene rules (flow keys, includes, cycles) need, built once
// from the rows so that linting a row never scans the others. Kept current edit by edit
// with update()/remove(), so a re-lint after a keystroke costs only the rows it touches.
// clang-tidy 14 flags the parameter name of the implicit copy constructor, which the
// compiler makes up, not this code.
// NOLINTNEXTLINE(bugprone-reserved-identifier)
class DirectoryIndex final
{
public:
    enum class Edge { Flow, Include };

    static DirectoryIndex build(const QList<Row> &rows);
    // Takes the row's current version. Returns whether its key was new or its edges
    // changed: only then can the rows reaching it have other link findings than before.
    bool update(const Row &row);
    // The same with the row's edges already read (the linter reads them while it lints).
    bool update(const QString &key, const QStringList &flowKeys, const QStringList &includes);
    // Returns whether the key was there.
    bool remove(const QString &key);

    // Only the rows' keys; their edges follow with update(). Lint-all hashes the keys of a
    // large directory this way while the rows are still being linted.
    void addKeys(const QList<Row> &rows);

    bool contains(const QString &key) const { return m_keys.contains(key); }
    qsizetype size() const { return m_keys.size(); }
    // Keys a flow row's steps name (empty for other rows and flows that do not parse).
    QStringList flowKeys(const QString &key) const { return m_edges[int(Edge::Flow)].value(key); }
    // Keys a row's `includes` names, in order.
    QStringList includes(const QString &key) const { return m_edges[int(Edge::Include)].value(key); }
    // Rows that name `key` in a flow step or in includes: the rows to re-lint after it changes.
    QStringList referencing(const QString &key) const;
    // Whether following edges of one kind from `start` arrives at `target`. `start` are the
    // edges of the row being linted, which may differ from the indexed version of it.
    bool reaches(Edge edge, const QStringList &start, const QString &target) const;
    // Rows that reach any of `keys` through one or more edges of either kind: the rows
    // whose link findings (missing keys, cycles) an edit of `keys` can change.
    QSet<QString> reaching(const QSet<QString> &keys) const;

    // The edges a row has, the way the index reads them; the linter uses the same reading.
    static QStringList flowKeysOf(const Row &row);
    static QStringList includesOf(const Row &row);

private:
    // Returns whether the edges differ from before.
    bool link(Edge edge, const QString &key, const QStringList &targets);
    void unlink(Edge edge, const QString &key);

    QSet<QString> m_keys;
    QHash<QString, QStringList> m_edges[2];
    // Each referrer once per target, whichever kinds of edge lead there. A list, not a set:
    // most targets have a referrer or two, and a set of one costs ten times the memory.
    QHash<QString, QStringList> m_referencedBy;
};
