#pragma once

#include "dispatch/flows/flowplan.h"
#include "dispatch/row/row.h"

#include <QHash>
#include <QList>
#include <QRectF>
#include <QSet>
#include <QStringList>

#include <functional>
#include <optional>

class FlowNodeItem;
class QGraphicsItem;
class QGraphicsScene;

// Draws a flow plan into a scene, top to bottom: one row of nodes per step, a fan-out's
// branches side by side as lanes that split from and join into the steps around them,
// `=> NAME` written on the edge leaving the step (or branch) it binds. Nodes whose key
// names a flow row can be expanded: the nested flow is drawn inside them, the same way.
class FlowSceneBuilder final
{
public:
    // nullopt: no such row. Without a lookup nothing is known of the rows: no icons, no
    // broken or expandable nodes.
    using RowLookup = std::function<std::optional<Row>(const QString &key)>;

    FlowSceneBuilder(QGraphicsScene &scene, RowLookup rows, QSet<QString> expanded);

    // Adds the graph with start and output terminals, from `top` down; returns the nodes by
    // path ("step.branch", nested "outer/step.branch"). `rootKey` is the row the plan is
    // of (may be empty): a node naming it, or a flow around it, is not expandable.
    QHash<QString, FlowNodeItem *> build(const FlowPlan &plan, const QString &rootKey, qreal top = 0);
    // The keys the drawing depends on, for redrawing when one of them changes.
    const QSet<QString> &keys() const { return m_keys; }

private:
    struct Layout
    {
        QSizeF size;
        QList<QRectF> firstRow;
        QList<QRectF> lastRow;
    };

    Layout layoutPlan(const FlowPlan &plan, const QString &prefix, const QStringList &chain,
                      QGraphicsItem *parent, QPointF origin);
    FlowNodeItem *makeNode(const FlowCall &call, int step, int branch, const QString &prefix,
                           const QStringList &chain, QGraphicsItem *parent);
    void expandInto(FlowNodeItem *node, const Row &row, const QString &path, const QStringList &chain);
    void connectRows(const QList<QRectF> &from, const QList<QRectF> &to, qreal busY, QGraphicsItem *parent);
    void addLabel(const QString &text, QPointF at, QGraphicsItem *parent);
    QRectF addTerminal(const QString &text, QPointF center);

    QGraphicsScene &m_scene;
    RowLookup m_rows;
    QSet<QString> m_expanded;
    QHash<QString, FlowNodeItem *> m_nodes;
    QSet<QString> m_keys;
};
