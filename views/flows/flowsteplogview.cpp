#include "views/flows/flowsteplogview.h"

#include <QHeaderView>

using namespace Qt::StringLiterals;

namespace {

QString stepLabel(const FlowStepState &step, int branch)
{
    const QString lane = step.calls.size() > 1 ? QString(QChar(u'a' + branch % 26)) : QString();
    return QString::number(step.index + 1) + lane;
}

QString outputText(const FlowStepState &step, const FlowStepState::Call &call)
{
    if (step.pinned)
        return FlowStepLogView::tr("(pinned) %1").arg(call.output);
    if (call.phase == FlowStepState::Phase::Running)
        return FlowStepLogView::tr("running…");
    return call.output;
}

} // namespace

FlowStepLogView::FlowStepLogView(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(5);
    setHeaderLabels({tr("Step"), tr("Key"), tr("Output"), tr("Duration"), tr("Receipt")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    header()->setStretchLastSection(false);
    for (const Column column : {StepColumn, KeyColumn, DurationColumn, ReceiptColumn})
        header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(OutputColumn, QHeaderView::Stretch);
}

void FlowStepLogView::setSteps(const QList<FlowStepState> &steps)
{
    clear();
    for (const FlowStepState &step : steps) {
        for (int b = 0; b < step.calls.size(); ++b) {
            const FlowStepState::Call &call = step.calls[b];
            if (call.phase == FlowStepState::Phase::Pending && !step.pinned)
                continue;
            const QString output = outputText(step, call);
            auto *item = new QTreeWidgetItem(this);
            item->setText(StepColumn, stepLabel(step, b));
            item->setText(KeyColumn, call.key);
            item->setText(OutputColumn, QString(output).replace(u'\n', u'⏎'));
            item->setToolTip(OutputColumn, output);
            const bool ran =
                call.phase == FlowStepState::Phase::Done || call.phase == FlowStepState::Phase::Failed;
            item->setText(DurationColumn, ran && !step.pinned ? tr("%1 ms").arg(call.durationMs) : QString());
            item->setText(ReceiptColumn, call.invocationId);
        }
    }
}
