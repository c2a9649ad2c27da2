#pragma once

#include "dispatch/row/rowmerge.h"

#include <QDialog>
#include <QHash>

class QButtonGroup;
class QGridLayout;
class QRadioButton;

// A write conflict on one row, field by field: what this window read, what the server
// holds now and the unsaved edit, with a choice of theirs or mine per field (RowMerge's
// defaults preselected). Long texts show the lines each side changed from what was read.
// Apply accepts; Cancel rejects and leaves the edit pending. The dialog only chooses:
// writing the merged row is its caller's job.
class MergeDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MergeDialog)

public:
    explicit MergeDialog(RowMerge merge, QWidget *parent = nullptr);

    // The merge with the choices made so far.
    const RowMerge &merge() const { return m_merge; }
    QRadioButton *choiceButton(const QString &column, RowMerge::Side side) const;

private:
    QWidget *buildFields();
    void addField(QGridLayout *grid, int row, const RowMerge::Field &field);
    QWidget *valueWidget(const RowMerge::Field &field, const QVariant &value, bool isBase) const;

    RowMerge m_merge;
    QHash<QString, QButtonGroup *> m_choices;
};
