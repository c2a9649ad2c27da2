#pragma once

#include "dispatch/flows/run/flowstepstate.h"

#include <QTreeWidget>

class QDialog;

// Every call of a run so far, in order: step, key, output, duration and receipt id.
// Activating a row opens its output in full (StepOutputDialog); activating its receipt id
// asks for that receipt in the Receipts dock.
class FlowStepLogView final : public QTreeWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowStepLogView)

public:
    enum Column { StepColumn, KeyColumn, OutputColumn, DurationColumn, ReceiptColumn };

    explicit FlowStepLogView(QWidget *parent = nullptr);

    void setSteps(const QList<FlowStepState> &steps);
    // The full output of the row at `row` in a dialog of its own; null when there is none.
    QDialog *openOutput(int row);

    // Each row's flow step (0-based), on its Step column.
    static constexpr int StepIndexRole = Qt::UserRole + 1;

signals:
    void receiptRequested(const QString &invocationId);

private:
    void activate(QTreeWidgetItem *item, int column);
};
