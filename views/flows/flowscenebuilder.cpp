#include "views/flows/flowscenebuilder.h"

#include "dispatch/flows/flowparser.h"
#include "views/common/typeicons.h"
#include "views/flows/flownodeitem.h"

#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

using namespace Qt::StringLiterals;

namespace {

constexpr qreal laneGap = 24;
constexpr qreal rowGap = 52;
constexpr int maxExpansionDepth = 8; // the engine's own nesting limit

const QColor edgeColor(0x50, 0x58, 0x68);

qreal rowWidth(const QList<FlowNodeItem *> &row)
{
    qreal width = laneGap * qMax(0, int(row.size()) - 1);
    for (const FlowNodeItem *node : row)
        width += node->size().width();
    return width;
}

QRectF rectOf(const FlowNodeItem *node)
{
    return {node->pos(), node->size()};
}

void addArrowHead(QPainterPath &path, QPointF tip)
{
    path.moveTo(tip);
    path.lineTo(tip + QPointF(-4, -7));
    path.moveTo(tip);
    path.lineTo(tip + QPointF(4, -7));
}

} // namespace

FlowSceneBuilder::FlowSceneBuilder(QGraphicsScene &scene, RowLookup rows, QSet<QString> expanded)
    : m_scene(scene), m_rows(std::move(rows)), m_expanded(std::move(expanded))
{}

QHash<QString, FlowNodeItem *> FlowSceneBuilder::build(const FlowPlan &plan, const QString &rootKey,
                                                       qreal top)
{
    m_nodes.clear();
    m_keys.clear();
    const qreal graphTop = top + 24 + rowGap;
    const QStringList chain = rootKey.isEmpty() ? QStringList() : QStringList{rootKey};
    const Layout layout = layoutPlan(plan, {}, chain, nullptr, {0, graphTop});
    const qreal centerX = layout.size.width() / 2;
    const QRectF start = addTerminal(u"start: $PREV = body"_s, {centerX, top + 12});
    const QRectF output = addTerminal(u"output"_s, {centerX, graphTop + layout.size.height() + rowGap + 12});
    connectRows({start}, layout.firstRow, start.bottom() + rowGap / 2, nullptr);
    connectRows(layout.lastRow, {output}, output.top() - rowGap / 2, nullptr);
    return m_nodes;
}

FlowSceneBuilder::Layout FlowSceneBuilder::layoutPlan(const FlowPlan &plan, const QString &prefix,
                                                      const QStringList &chain, QGraphicsItem *parent,
                                                      QPointF origin)
{
    QList<QList<FlowNodeItem *>> rows;
    qreal width = 0;
    for (int s = 0; s < plan.steps.size(); ++s) {
        QList<FlowNodeItem *> row;
        for (int b = 0; b < plan.steps[s].calls.size(); ++b)
            row.append(makeNode(plan.steps[s].calls[b], s, b, prefix, chain, parent));
        width = qMax(width, rowWidth(row));
        rows.append(row);
    }

    Layout layout;
    qreal y = origin.y();
    QList<QRectF> previous;
    for (int s = 0; s < rows.size(); ++s) {
        qreal x = origin.x() + (width - rowWidth(rows[s])) / 2;
        qreal height = 0;
        QList<QRectF> current;
        for (FlowNodeItem *node : std::as_const(rows[s])) {
            node->setPos(x, y);
            x += node->size().width() + laneGap;
            height = qMax(height, node->size().height());
            current.append(rectOf(node));
        }
        if (!previous.isEmpty())
            connectRows(previous, current, y - rowGap / 2, parent);
        const FlowStep &step = plan.steps[s];
        for (int b = 0; b < step.calls.size(); ++b) {
            if (!step.calls[b].binding.isEmpty())
                addLabel(u"=> "_s + step.calls[b].binding,
                         current[b].bottomLeft() + QPointF(current[b].width() / 2 + 4, 2), parent);
        }
        if (!step.binding.isEmpty())
            addLabel(u"=> "_s + step.binding, {origin.x() + width / 2 + 4, y + height + rowGap / 2 + 2},
                     parent);
        previous = current;
        y += height + rowGap;
    }
    layout.size = {width, y - rowGap - origin.y()};
    if (!rows.isEmpty()) {
        for (const FlowNodeItem *node : std::as_const(rows.first()))
            layout.firstRow.append(rectOf(node));
        layout.lastRow = previous;
    }
    return layout;
}

FlowNodeItem *FlowSceneBuilder::makeNode(const FlowCall &call, int step, int branch, const QString &prefix,
                                         const QStringList &chain, QGraphicsItem *parent)
{
    m_keys.insert(call.key);
    FlowNodeItem::Content content;
    content.path = prefix + u"%1.%2"_s.arg(step).arg(branch);
    content.step = step;
    content.branch = branch;
    content.key = call.key;
    content.body = call.body;
    const std::optional<Row> row = m_rows ? m_rows(call.key) : std::nullopt;
    if (row)
        content.icon = TypeIcons::forType(row->type);
    content.broken = m_rows && !row;
    content.expandable =
        row && row->type == u"flow"_s && !chain.contains(call.key) && chain.size() <= maxExpansionDepth;
    content.expanded = content.expandable && m_expanded.contains(content.path);

    auto *node = new FlowNodeItem(content, parent);
    if (!parent)
        m_scene.addItem(node);
    m_nodes.insert(content.path, node);
    if (content.expanded)
        expandInto(node, *row, content.path, chain + QStringList{call.key});
    return node;
}

void FlowSceneBuilder::expandInto(FlowNodeItem *node, const Row &row, const QString &path,
                                  const QStringList &chain)
{
    const FlowParseResult parsed = FlowParser::parse(row.content);
    if (!parsed.ok()) {
        auto *error = new QGraphicsSimpleTextItem(u"cannot expand: "_s + parsed.error->describe(), node);
        error->setBrush(QColor(0xc0, 0x20, 0x20));
        error->setPos(node->nestedOrigin());
        node->setNestedSize(error->boundingRect().size());
        return;
    }
    const Layout nested = layoutPlan(parsed.plan, path + u'/', chain, node, node->nestedOrigin());
    node->setNestedSize(nested.size);
}

// Every node of one row to every node of the next through a horizontal bus at `busY`:
// a fan-out's lanes split from it and join into it.
void FlowSceneBuilder::connectRows(const QList<QRectF> &from, const QList<QRectF> &to, qreal busY,
                                   QGraphicsItem *parent)
{
    if (from.isEmpty() || to.isEmpty())
        return;
    QPainterPath path;
    qreal left = from.first().center().x();
    qreal right = left;
    for (const QRectF &rect : from) {
        path.moveTo(rect.center().x(), rect.bottom());
        path.lineTo(rect.center().x(), busY);
        left = qMin(left, rect.center().x());
        right = qMax(right, rect.center().x());
    }
    for (const QRectF &rect : to) {
        path.moveTo(rect.center().x(), busY);
        path.lineTo(rect.center().x(), rect.top());
        addArrowHead(path, {rect.center().x(), rect.top()});
        left = qMin(left, rect.center().x());
        right = qMax(right, rect.center().x());
    }
    path.moveTo(left, busY);
    path.lineTo(right, busY);
    auto *edge = new QGraphicsPathItem(path, parent);
    edge->setPen(QPen(edgeColor, 1.4));
    edge->setZValue(-1);
    if (!parent)
        m_scene.addItem(edge);
}

void FlowSceneBuilder::addLabel(const QString &text, QPointF at, QGraphicsItem *parent)
{
    auto *background = new QGraphicsRectItem(parent);
    auto *label = new QGraphicsSimpleTextItem(text, background);
    QFont font = label->font();
    font.setItalic(true);
    label->setFont(font);
    label->setBrush(QColor(0x10, 0x40, 0xa0));
    background->setRect(label->boundingRect().adjusted(-2, 0, 2, 0));
    background->setBrush(Qt::white);
    background->setPen(Qt::NoPen);
    background->setPos(at);
    if (!parent)
        m_scene.addItem(background);
}

QRectF FlowSceneBuilder::addTerminal(const QString &text, QPointF center)
{
    auto *label = new QGraphicsSimpleTextItem(text);
    const QRectF textRect = label->boundingRect();
    const QRectF pill(center - QPointF(textRect.width() / 2 + 12, 12), QSizeF(textRect.width() + 24, 24));
    auto *shape = m_scene.addPath([&] {
        QPainterPath path;
        path.addRoundedRect(pill, 12, 12);
        return path;
    }());
    shape->setBrush(QColor(0xe4, 0xe8, 0xf0));
    shape->setPen(QPen(edgeColor, 1));
    label->setParentItem(shape);
    label->setPos(pill.center() - textRect.center());
    return pill;
}
