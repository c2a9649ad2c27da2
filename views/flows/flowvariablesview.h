#pragma once

#include "dispatch/flows/flowplan.h"
#include "dispatch/flows/run/flowstepstate.h"

#include <QTreeWidget>

// The debugger's variables: for one step, what it runs with ($PREV, $1…$N, the bindings,
// each call's resolved body and target row) and, once it ran, what came back (output,
// duration, receipt). A fan-out lists these per branch.
class FlowVariablesView final : public QTreeWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowVariablesView)

public:
    explicit FlowVariablesView(QWidget *parent = nullptr);

    void showStep(const FlowStepState &step, const FlowStep &planned);
    // Adds the flow's output below the step shown.
    void showFlowOutput(const QString &output);
    // The full value of the item at `path`: a top-level name ("$PREV", "$1", "$NAME",
    // "body", "target", "output", …), or "branch 2: KEY/output" inside a fan-out.
    QString value(const QString &path) const;

private:
    QTreeWidgetItem *addValue(QTreeWidgetItem *parent, const QString &name, const QString &value);
    void addCall(QTreeWidgetItem *parent, const FlowStepState::Call &call);
};
