#include "views/invoke/durationplot.h"

#include "models/receipttablemodel.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace {

constexpr int kMargin = 6;
// Dots stop helping once they touch; past this many the line alone reads better.
constexpr int kMostDots = 200;

// The smallest 1, 2 or 5 × 10^k at or above `value`, so the scale reads as a round number.
double roundCeiling(double value)
{
    if (value <= 1)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * magnitude >= value)
            return step * magnitude;
    }
    return 10 * magnitude;
}

QString timeLabel(double msecs, double span)
{
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(qint64(msecs), Qt::UTC);
    return time.toString(span < 86400000.0 ? QStringLiteral("HH:mm:ss") : QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

DurationPlot::DurationPlot(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void DurationPlot::setSeries(const QString &key, QList<QPointF> points, std::optional<QPointF> marked,
                             const QString &perBucket)
{
    std::stable_sort(points.begin(), points.end(),
                     [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    m_key = key;
    m_points = std::move(points);
    m_marked = marked;
    m_perBucket = perBucket;
    update();
}

void DurationPlot::clear()
{
    setSeries(QString(), {});
}

void DurationPlot::setListEmpty(bool listEmpty)
{
    if (std::exchange(m_listEmpty, listEmpty) != listEmpty && m_key.isEmpty())
        update();
}

QString DurationPlot::caption() const
{
    if (m_key.isEmpty())
        return m_listEmpty ? tr("A key's durations plot here once the list has a receipt.")
                           : tr("Select a receipt to plot its key's durations");
    if (m_points.isEmpty())
        return tr("%1: no receipts").arg(m_key);
    const auto [low, high] = std::minmax_element(
        m_points.begin(), m_points.end(), [](const QPointF &a, const QPointF &b) { return a.y() < b.y(); });
    const QString counted =
        m_perBucket.isEmpty()
            ? ReceiptTableModel::receiptsText(int(m_points.size()))
            : tr("the slowest of each %1, %2 of them").arg(m_perBucket, QLocale().toString(m_points.size()));
    return tr("%1: %2, %3 – %4")
        .arg(m_key, counted, ReceiptTableModel::durationText(qint64(low->y())),
             ReceiptTableModel::durationText(qint64(high->y())));
}

QSize DurationPlot::sizeHint() const
{
    return {360, 150};
}

QSize DurationPlot::minimumSizeHint() const
{
    return {160, 90};
}

DurationPlot::Span DurationPlot::timeSpan() const
{
    Span span{m_points.first().x(), m_points.last().x()};
    // One point, or all at once, would divide by nothing: centre them in a minute.
    if (span.high - span.low < 1000) {
        span.low -= 30000;
        span.high += 30000;
    }
    return span;
}

double DurationPlot::durationCeiling() const
{
    double highest = 0;
    for (const QPointF &point : m_points)
        highest = std::max(highest, point.y());
    return roundCeiling(highest);
}

void DurationPlot::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette colors = palette();
    painter.fillRect(rect(), colors.base());
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height();
    painter.setPen(colors.text().color());
    painter.drawText(QRect(kMargin, kMargin / 2, width() - 2 * kMargin, line),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(caption(), Qt::ElideRight, width() - 2 * kMargin));
    if (m_points.isEmpty())
        return;

    const double ceiling = durationCeiling();
    const QString topLabel = ReceiptTableModel::durationText(qint64(ceiling));
    const QString zeroLabel = tr("0 ms");
    const int labelWidth =
        std::max(metrics.horizontalAdvance(topLabel), metrics.horizontalAdvance(zeroLabel));
    const QRectF area(2 * kMargin + labelWidth, kMargin + line + kMargin, width() - 3 * kMargin - labelWidth,
                      height() - 3 * kMargin - 2 * line - kMargin);
    if (area.width() < 8 || area.height() < 8)
        return;

    QColor faint = colors.text().color();
    faint.setAlphaF(0.6f);
    painter.setPen(faint);
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.drawLine(area.bottomLeft(), area.topLeft());
    const Span span = timeSpan();
    const double labelLeft = kMargin;
    painter.drawText(QRectF(labelLeft, area.top() - line / 2.0, labelWidth, line),
                     Qt::AlignRight | Qt::AlignVCenter, topLabel);
    painter.drawText(QRectF(labelLeft, area.bottom() - line / 2.0, labelWidth, line),
                     Qt::AlignRight | Qt::AlignVCenter, zeroLabel);
    const QRectF below(area.left(), area.bottom() + kMargin / 2.0, area.width(), line);
    painter.drawText(below, Qt::AlignLeft | Qt::AlignTop, timeLabel(span.low, span.high - span.low));
    painter.drawText(below, Qt::AlignRight | Qt::AlignTop, timeLabel(span.high, span.high - span.low));

    auto xOf = [&](double x) { return area.left() + (x - span.low) / (span.high - span.low) * area.width(); };
    auto yOf = [&](double y) { return area.bottom() - y / ceiling * area.height(); };
    const QColor ink = colors.highlight().color();
    // A cosmetic one-pixel pen takes the rasterizer's fast path; a wider one costs tens of
    // milliseconds on a zig-zag of a few hundred points.
    QPen pen(ink, 1);
    pen.setCosmetic(true);
    painter.setPen(pen);
    if (m_points.size() <= qsizetype(area.width())) {
        painter.setRenderHint(QPainter::Antialiasing);
        QPolygonF polyline;
        polyline.reserve(m_points.size());
        for (const QPointF &point : m_points)
            polyline.append(QPointF(xOf(point.x()), yOf(point.y())));
        painter.drawPolyline(polyline);
        if (m_points.size() <= kMostDots) {
            painter.setBrush(ink);
            for (const QPointF &at : std::as_const(polyline))
                painter.drawEllipse(at, 2.5, 2.5);
        }
    } else {
        const int columns = int(area.width()) + 1;
        std::vector<double> low(std::size_t(columns), std::numeric_limits<double>::max());
        std::vector<double> high(std::size_t(columns), std::numeric_limits<double>::lowest());
        for (const QPointF &point : m_points) {
            const int column = std::clamp(int(xOf(point.x()) - area.left()), 0, columns - 1);
            low[std::size_t(column)] = std::min(low[std::size_t(column)], point.y());
            high[std::size_t(column)] = std::max(high[std::size_t(column)], point.y());
        }
        for (int column = 0; column < columns; ++column) {
            if (low[std::size_t(column)] <= high[std::size_t(column)])
                painter.drawLine(QPointF(area.left() + column, yOf(low[std::size_t(column)])),
                                 QPointF(area.left() + column, yOf(high[std::size_t(column)]) - 0.5));
        }
        painter.setRenderHint(QPainter::Antialiasing);
    }
    if (m_marked) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(colors.text().color(), 2));
        painter.drawEllipse(QPointF(xOf(m_marked->x()), yOf(m_marked->y())), 5, 5);
    }
}
