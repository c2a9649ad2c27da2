#pragma once

#include <QList>
#include <QPointF>
#include <QWidget>

#include <optional>

// How long one key's invocations took, over time: a small line-and-dot plot with its
// time span and a duration scale. More points than pixels are drawn as one min-to-max
// stroke per pixel column, so 100,000 receipts of one key paint as fast as 500.
class DurationPlot final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DurationPlot)

public:
    explicit DurationPlot(QWidget *parent = nullptr);

    // x: start (UTC ms since the epoch), y: duration in ms, in any order. `marked` is
    // drawn ringed: the selected receipt. `perBucket` names the span each point is the
    // slowest receipt of ("hour"); empty when each point is one receipt.
    void setSeries(const QString &key, QList<QPointF> points, std::optional<QPointF> marked = std::nullopt,
                   const QString &perBucket = QString());
    void clear();
    // Without a key, the caption says why none is chosen: `listEmpty` when the list beside
    // has no receipt to choose.
    void setListEmpty(bool listEmpty);

    QString key() const { return m_key; }
    const QList<QPointF> &points() const { return m_points; }
    // The line above the plot, e.g. "WEATHER_NOW: 12 receipts, 40 ms – 1.2 s", or
    // "WEATHER_NOW: the slowest of each hour, 25 of them, 40 ms – 1.2 s".
    QString caption() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Span
    {
        double low;
        double high;
    };
    Span timeSpan() const;
    double durationCeiling() const;

    QString m_key;
    QList<QPointF> m_points; // sorted by x
    std::optional<QPointF> m_marked;
    QString m_perBucket;
    bool m_listEmpty = false;
};
