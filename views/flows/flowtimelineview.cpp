#include "views/flows/flowtimelineview.h"

#include <QPainter>

using namespace Qt::StringLiterals;

namespace {

constexpr int rowHeight = 20;
constexpr int labelWidth = 170;
constexpr int axisHeight = 20;
constexpr int margin = 8;
constexpr qreal minBarWidth = 2; // an instant call still shows

QColor colourOf(FlowStepState::Phase phase)
{
    switch (phase) {
    case FlowStepState::Phase::Running:
        return QColor(0xf0, 0xb0, 0x30);
    case FlowStepState::Phase::Done:
        return QColor(0x50, 0xb0, 0x60);
    case FlowStepState::Phase::Failed:
        return QColor(0xd0, 0x40, 0x40);
    case FlowStepState::Phase::Pending:
        break;
    }
    return QColor(0xb0, 0xb0, 0xb0);
}

QString labelOf(const FlowStepState &step, int branch)
{
    const QString lane = step.calls.size() > 1 ? QString(QChar(u'a' + branch % 26)) : QString();
    return u"%1%2 %3"_s.arg(step.index + 1).arg(lane, step.calls[branch].key);
}

QString formatMs(qint64 us)
{
    return us >= 10000 ? u"%1 ms"_s.arg(us / 1000) : u"%1 ms"_s.arg(double(us) / 1000.0, 0, 'f', 1);
}

} // namespace

FlowTimelineView::FlowTimelineView(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(axisHeight + rowHeight + 2 * margin);
}

void FlowTimelineView::setSteps(const QList<FlowStepState> &steps, qint64 nowUs)
{
    const qsizetype shown = m_bars.size();
    m_bars.clear();
    for (const FlowStepState &step : steps) {
        for (int b = 0; b < step.calls.size(); ++b) {
            const FlowStepState::Call &call = step.calls[b];
            if (step.pinned || call.startedAtUs < 0)
                continue;
            const qint64 end = call.finishedAtUs >= 0 ? call.finishedAtUs : nowUs;
            m_bars.append({labelOf(step, b), call.startedAtUs, qMax(end, call.startedAtUs), call.phase});
        }
    }
    m_originUs = m_bars.isEmpty() ? 0 : m_bars.first().startUs;
    m_spanUs = 0;
    for (const Bar &bar : std::as_const(m_bars)) {
        m_originUs = qMin(m_originUs, bar.startUs);
        m_spanUs = qMax(m_spanUs, bar.endUs);
    }
    m_spanUs -= m_originUs;
    if (m_bars.size() != shown)
        updateGeometry();
    update();
}

QSize FlowTimelineView::sizeHint() const
{
    return {480, int(2 * margin + axisHeight + rowHeight * qMax<qsizetype>(1, m_bars.size()))};
}

void FlowTimelineView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    if (m_bars.isEmpty()) {
        painter.setPen(Qt::gray);
        painter.drawText(rect(), Qt::AlignCenter, tr("No calls yet: Step (F10) or Continue (F5)"));
        return;
    }
    const qreal plotLeft = labelWidth + margin;
    const qreal plotWidth = qMax<qreal>(40, width() - plotLeft - margin);
    const qreal scale = plotWidth / qMax<qint64>(1, m_spanUs);
    for (int i = 0; i < m_bars.size(); ++i) {
        const Bar &bar = m_bars[i];
        const qreal y = margin + i * rowHeight;
        painter.setPen(Qt::black);
        painter.drawText(QRectF(margin, y, labelWidth - margin, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         painter.fontMetrics().elidedText(bar.label, Qt::ElideRight, labelWidth - margin));
        const QRectF box(plotLeft + (bar.startUs - m_originUs) * scale, y + 4,
                         qMax(minBarWidth, (bar.endUs - bar.startUs) * scale), rowHeight - 8);
        painter.fillRect(box, colourOf(bar.phase));
    }
    const qreal axisY = margin + m_bars.size() * rowHeight + 4;
    painter.setPen(Qt::darkGray);
    painter.drawLine(QPointF(plotLeft, axisY), QPointF(plotLeft + plotWidth, axisY));
    painter.drawText(QRectF(plotLeft, axisY, plotWidth, axisHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
                     u"0"_s);
    painter.drawText(QRectF(plotLeft, axisY, plotWidth, axisHeight - 4), Qt::AlignRight | Qt::AlignVCenter,
                     formatMs(m_spanUs));
}
