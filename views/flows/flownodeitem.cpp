#include "views/flows/flownodeitem.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPainter>

namespace {

constexpr qreal padding = 8;
constexpr qreal iconSize = 16;
constexpr qreal minWidth = 160;
constexpr qreal maxWidth = 300;
constexpr int maxBodyLines = 3;

QFont keyFont()
{
    QFont font = QApplication::font();
    font.setBold(true);
    return font;
}

QFont bodyFont()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

QFont noteFont()
{
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}

QColor fillFor(FlowNodeItem::State state)
{
    switch (state) {
    case FlowNodeItem::State::Pending:
        return QColor(0xee, 0xee, 0xee);
    case FlowNodeItem::State::Running:
        return QColor(0xff, 0xe0, 0x8a);
    case FlowNodeItem::State::Done:
        return QColor(0xc8, 0xf0, 0xc8);
    case FlowNodeItem::State::Failed:
        return QColor(0xf8, 0xc0, 0xc0);
    case FlowNodeItem::State::Idle:
        break;
    }
    return QColor(0xfb, 0xfb, 0xfd);
}

QStringList bodyLines(const QString &body, qreal width)
{
    const QFontMetricsF metrics(bodyFont());
    QStringList lines = body.split(u'\n');
    const bool cut = lines.size() > maxBodyLines;
    lines = lines.mid(0, maxBodyLines);
    if (cut)
        lines.last() += QStringLiteral(" …");
    for (QString &line : lines)
        line = metrics.elidedText(line, Qt::ElideRight, width);
    return lines;
}

} // namespace

FlowNodeItem::FlowNodeItem(Content content, QGraphicsItem *parent)
    : QGraphicsItem(parent), m_content(std::move(content))
{
    const QFontMetricsF keyMetrics(keyFont());
    const QFontMetricsF bodyMetrics(bodyFont());
    // Room for the debugger's note ("1234 ms") beside the key, so it never covers it.
    const qreal noteRoom = QFontMetricsF(noteFont()).horizontalAdvance(QStringLiteral("0000 ms")) + 6;
    qreal natural = iconSize + 6 + keyMetrics.horizontalAdvance(m_content.key) + noteRoom
                    + (m_content.expandable ? 22 : 0);
    const QStringList lines = m_content.body.split(u'\n');
    for (const QString &line : lines)
        natural = qMax(natural, bodyMetrics.horizontalAdvance(line));
    const qreal width = qBound(minWidth, natural + 2 * padding, maxWidth);
    m_headerHeight = qMax(iconSize, keyMetrics.height()) + padding * 1.5;
    m_bodyLines = bodyLines(m_content.body, width - 2 * padding);
    if (m_content.broken)
        m_bodyLines.append(QStringLiteral("⚠ unknown key"));
    m_size = {width, m_headerHeight + m_bodyLines.size() * bodyMetrics.lineSpacing() + padding};
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
}

QRectF FlowNodeItem::boundingRect() const
{
    // The breakpoint dot sits just outside the left edge.
    return QRectF(QPointF(-8, 0), m_size + QSizeF(8, 0)).adjusted(-2, -2, 2, 2);
}

QPointF FlowNodeItem::nestedOrigin() const
{
    return {padding * 2, m_size.height()};
}

void FlowNodeItem::setNestedSize(const QSizeF &size)
{
    prepareGeometryChange();
    m_size.setWidth(qMax(m_size.width(), size.width() + padding * 4));
    m_size.setHeight(m_size.height() + size.height() + padding * 2);
}

QRectF FlowNodeItem::expanderRect() const
{
    return {m_size.width() - padding - 16, padding * 0.75, 16, 16};
}

bool FlowNodeItem::isOnExpander(const QPointF &scenePos) const
{
    return m_content.expandable && expanderRect().adjusted(-4, -4, 4, 4).contains(mapFromScene(scenePos));
}

void FlowNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF frame(QPointF(0, 0), m_size);
    QPen border(m_content.broken ? QColor(0xc0, 0x20, 0x20) : QColor(0x60, 0x66, 0x70), m_current ? 3 : 1.2);
    if (m_content.broken)
        border.setStyle(Qt::DashLine);
    if (m_chosen && !m_current)
        border.setColor(QColor(0x20, 0x60, 0xd0));
    painter->setPen(border);
    painter->setBrush(fillFor(m_state));
    painter->drawRoundedRect(frame, 6, 6);

    const QRectF iconRect(padding, padding * 0.75, iconSize, iconSize);
    m_content.icon.paint(painter, iconRect.toRect());
    painter->setPen(Qt::black);
    painter->setFont(keyFont());
    const QRectF keyRect(iconRect.right() + 6, 0, m_size.width() - iconRect.right() - 6 - padding,
                         m_headerHeight);
    painter->drawText(keyRect, Qt::AlignLeft | Qt::AlignVCenter, m_content.key);
    if (!m_note.isEmpty()) {
        painter->setFont(noteFont());
        painter->setPen(QColor(0x40, 0x40, 0x40));
        const qreal right = m_content.expandable ? expanderRect().left() - 4 : m_size.width() - padding;
        painter->drawText(QRectF(0, 0, right, m_headerHeight), Qt::AlignRight | Qt::AlignVCenter, m_note);
    }
    if (m_content.expandable) {
        painter->setPen(QColor(0x40, 0x40, 0x40));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(expanderRect());
        painter->setFont(keyFont());
        painter->drawText(expanderRect(), Qt::AlignCenter,
                          m_content.expanded ? QStringLiteral("−") : QStringLiteral("+"));
    }

    const QFontMetricsF bodyMetrics(bodyFont());
    painter->setFont(bodyFont());
    qreal y = m_headerHeight + bodyMetrics.ascent();
    for (int i = 0; i < m_bodyLines.size(); ++i) {
        const bool warning = m_content.broken && i == m_bodyLines.size() - 1;
        painter->setPen(warning ? QColor(0xc0, 0x20, 0x20) : QColor(0x20, 0x20, 0x20));
        painter->drawText(QPointF(padding, y), m_bodyLines[i]);
        y += bodyMetrics.lineSpacing();
    }

    if (m_breakpoint) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0xd0, 0x20, 0x20));
        painter->drawEllipse(QPointF(-1, m_headerHeight / 2), 5, 5);
    }
}

void FlowNodeItem::setState(State state)
{
    m_state = state;
    update();
}

void FlowNodeItem::setNote(const QString &note)
{
    m_note = note;
    update();
}

void FlowNodeItem::setBreakpoint(bool on)
{
    m_breakpoint = on;
    update();
}

void FlowNodeItem::setCurrent(bool current)
{
    m_current = current;
    update();
}

void FlowNodeItem::setChosen(bool chosen)
{
    m_chosen = chosen;
    update();
}
