#pragma once

#include "dispatch/flows/run/flowstepstate.h"

#include <QTreeWidget>

// Every call of a run so far, in order: step, key, output, duration and receipt id.
class FlowStepLogView final : public QTreeWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowStepLogView)

public:
    enum Column { StepColumn, KeyColumn, OutputColumn, DurationColumn, ReceiptColumn };

    explicit FlowStepLogView(QWidget *parent = nullptr);

    void setSteps(const QList<FlowStepState> &steps);
};
