#pragma once

#include "dispatch/flows/run/flowstepstate.h"

#include <QList>
#include <QWidget>

// A run's calls on one time axis, one bar per call from its start to its end (to now while
// it runs), so the branches of a fan-out show overlapping in time.
class FlowTimelineView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowTimelineView)

public:
    struct Bar
    {
        QString label; // "2b KEY": step 2, second branch
        qint64 startUs = 0;
        qint64 endUs = 0;
        FlowStepState::Phase phase = FlowStepState::Phase::Pending;
    };

    explicit FlowTimelineView(QWidget *parent = nullptr);

    // `nowUs` is where running calls end for now, on the run's clock. The axis starts at
    // the first call, so time spent paused before it does not show.
    void setSteps(const QList<FlowStepState> &steps, qint64 nowUs);
    const QList<Bar> &bars() const { return m_bars; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Bar> m_bars;
    qint64 m_originUs = 0;
    qint64 m_spanUs = 0;
};
