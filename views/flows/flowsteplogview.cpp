#include "views/flows/flowsteplogview.h"

#include "views/flows/stepoutputdialog.h"

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
    connect(this, &QTreeWidget::itemActivated, this, &FlowStepLogView::activate);
}

void FlowStepLogView::activate(QTreeWidgetItem *item, int column)
{
    const QString receipt = item->text(ReceiptColumn);
    if (column == ReceiptColumn && !receipt.isEmpty())
        emit receiptRequested(receipt);
    else
        openOutput(indexOfTopLevelItem(item));
}

QDialog *FlowStepLogView::openOutput(int row)
{
    const QTreeWidgetItem *item = topLevelItem(row);
    if (!item)
        return nullptr;
    auto *dialog = new StepOutputDialog(tr("Step %1 — %2").arg(item->text(StepColumn), item->text(KeyColumn)),
                                        item->data(OutputColumn, Qt::UserRole).toString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
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
            item->setData(StepColumn, StepIndexRole, step.index);
            item->setText(KeyColumn, call.key);
            item->setText(OutputColumn, QString(output).replace(u'\n', u'⏎'));
            item->setToolTip(OutputColumn, tr("Double-click for the whole output"));
            item->setData(OutputColumn, Qt::UserRole, output);
            const bool ran =
                call.phase == FlowStepState::Phase::Done || call.phase == FlowStepState::Phase::Failed;
            item->setText(DurationColumn, ran && !step.pinned ? tr("%1 ms").arg(call.durationMs) : QString());
            item->setText(ReceiptColumn, call.invocationId);
            if (!call.invocationId.isEmpty()) {
                item->setForeground(ReceiptColumn, palette().brush(QPalette::Link));
                item->setToolTip(ReceiptColumn, tr("Double-click to open this receipt in the Receipts dock"));
            }
        }
    }
}
