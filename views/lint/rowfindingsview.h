#pragma once

#include "dispatch/lint/rules/lintfinding.h"

#include <QHash>
#include <QListWidget>
#include <QPalette>
#include <QPointer>

class QLabel;

// The row editor's live hygiene findings: a short list under the form, and the label of
// each field a finding concerns coloured (red for an error, amber for a warning) with the
// messages as its tooltip. Activating a listed finding asks for its field's widget.
class RowFindingsView final : public QListWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowFindingsView)

public:
    explicit RowFindingsView(QWidget *parent = nullptr);

    // The label that stands for `field` in the form.
    void addField(const QString &field, QLabel *label);
    void showFindings(const QList<LintFinding> &findings);
    // The label's current mark: "error", "warning" or "".
    QString markOf(const QString &field) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void fieldActivated(const QString &field);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    int findingHeight(int row) const;

    struct Mark
    {
        QPointer<QLabel> label;
        QPalette palette; // as it was before any mark
        QString toolTip;
        QString severity;
    };
    QHash<QString, Mark> m_marks;
};
