#include "views/flows/flowvariablesview.h"

#include <QHeaderView>

using namespace Qt::StringLiterals;

namespace {

constexpr int fullValueRole = Qt::UserRole;

// One line for the tree; the full text stays in the tooltip and in fullValueRole.
QString oneLine(const QString &value)
{
    QString line = value;
    line.replace(u'\n', u'⏎');
    return line;
}

QString targetOf(const FlowStepState::Call &call)
{
    if (!call.row)
        return FlowVariablesView::tr("%1 (unknown key)").arg(call.key);
    const QString target = call.row->target.isEmpty() ? QString() : u' ' + call.row->target;
    return u"%1 (%2)%3"_s.arg(call.key, call.row->type, target);
}

bool hasRun(const FlowStepState::Call &call)
{
    return call.phase == FlowStepState::Phase::Done || call.phase == FlowStepState::Phase::Failed;
}

} // namespace

FlowVariablesView::FlowVariablesView(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Name"), tr("Value")});
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
}

void FlowVariablesView::showStep(const FlowStepState &step, const FlowStep &planned)
{
    clear();
    addValue(nullptr, tr("step"),
             QString::number(step.index + 1) + (step.pinned ? tr(" (pinned)") : QString()));
    addValue(nullptr, u"$PREV"_s, step.prev);
    for (int i = 0; i < step.args.size(); ++i)
        addValue(nullptr, u"$%1"_s.arg(i + 1), step.args[i]);
    QStringList names = step.bindings.keys();
    names.sort();
    for (const QString &name : std::as_const(names))
        addValue(nullptr, u'$' + name, step.bindings.value(name));
    if (!planned.fanOut && !step.calls.isEmpty()) {
        addCall(nullptr, step.calls.first());
        return;
    }
    for (int b = 0; b < step.calls.size(); ++b) {
        auto *branch = new QTreeWidgetItem(this, {tr("branch %1: %2").arg(b + 1).arg(step.calls[b].key)});
        addCall(branch, step.calls[b]);
        branch->setExpanded(true);
    }
    if (step.phase == FlowStepState::Phase::Done || step.phase == FlowStepState::Phase::Failed)
        addValue(nullptr, tr("output"), step.output);
}

void FlowVariablesView::addCall(QTreeWidgetItem *parent, const FlowStepState::Call &call)
{
    addValue(parent, tr("body"), call.resolvedBody);
    addValue(parent, tr("target"), targetOf(call));
    if (!hasRun(call))
        return;
    addValue(parent, tr("output"), call.output);
    addValue(parent, tr("duration"), tr("%1 ms").arg(call.durationMs));
    addValue(parent, tr("receipt"), call.invocationId.isEmpty() ? tr("(none: not run)") : call.invocationId);
}

void FlowVariablesView::showFlowOutput(const QString &output)
{
    addValue(nullptr, tr("flow output"), output);
}

QTreeWidgetItem *FlowVariablesView::addValue(QTreeWidgetItem *parent, const QString &name,
                                             const QString &value)
{
    auto *item = parent ? new QTreeWidgetItem(parent, {name, oneLine(value)})
                        : new QTreeWidgetItem(this, {name, oneLine(value)});
    item->setData(1, fullValueRole, value);
    item->setToolTip(1, value);
    return item;
}

QString FlowVariablesView::value(const QString &path) const
{
    const QStringList names = path.split(u'/');
    QTreeWidgetItem *found = nullptr;
    for (int i = 0; i < topLevelItemCount() && !found; ++i) {
        if (topLevelItem(i)->text(0) == names.first())
            found = topLevelItem(i);
    }
    for (int depth = 1; found && depth < names.size(); ++depth) {
        QTreeWidgetItem *parent = std::exchange(found, nullptr);
        for (int i = 0; i < parent->childCount() && !found; ++i) {
            if (parent->child(i)->text(0) == names[depth])
                found = parent->child(i);
        }
    }
    return found ? found->data(1, fullValueRole).toString() : QString();
}
