#pragma once

#include "dispatch/row/row.h"

#include <QUndoCommand>

#include <optional>

class DirectoryDocument;

// Every edit the GUI makes: some rows go from one state to another (nullopt: absent).
// Consecutive typing in one field of one row merges into a single command.
class RowChangeCommand final : public QUndoCommand
{
public:
    struct Change
    {
        QString key;
        std::optional<Row> before;
        std::optional<Row> after;
    };

    enum { FieldEditId = 1 };

    RowChangeCommand(DirectoryDocument *document, QList<Change> changes, const QString &text,
                     const QString &mergeField = {});

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;
    // The rows it changes, in the order it changes them.
    QStringList keys() const;

private:
    DirectoryDocument *m_document;
    QList<Change> m_changes;
    QString m_mergeField;
};
