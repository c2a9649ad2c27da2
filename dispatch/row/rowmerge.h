#pragma once

#include "dispatch/row/row.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QVariant>

#include <optional>

// A three-way merge of one row after a write conflict: `base` is the row as this window
// read it, `theirs` the row the server holds now, `mine` the unsaved edit. Every column
// where theirs and mine differ is one field to decide; the default keeps mine where this
// window edited the field and theirs everywhere else, so accepting the defaults loses
// neither side's changes unless both changed the same field. The merged row carries
// their updated_at, so writing it is checked against their version, not the one read.
class RowMerge final
{
    Q_DECLARE_TR_FUNCTIONS(RowMerge)

public:
    enum class Side { Theirs, Mine };

    struct Field
    {
        QString column;
        QVariant base; // null when the row was new to this window
        QVariant theirs;
        QVariant mine;
        bool editedByMe = false;
        bool editedByThem = false;
        Side choice = Side::Theirs;
    };

    RowMerge(std::optional<Row> base, Row theirs, Row mine);

    QString key() const { return m_theirs.key; }
    const std::optional<Row> &base() const { return m_base; }
    const Row &theirs() const { return m_theirs; }
    const Row &mine() const { return m_mine; }
    // In the table's column order; empty when the two rows hold the same values.
    const QList<Field> &fields() const { return m_fields; }
    bool isEmpty() const { return m_fields.isEmpty(); }

    // False for a column that is not one of fields().
    bool choose(const QString &column, Side side);
    Row merged() const;

    // A value as the dialog shows it: NULL for SQL NULL, text as it is.
    static QString valueText(const QVariant &value);
    static bool isMultiLine(const Field &field);
    // A long text as the lines it changes from `base`: "- " removed, "+ " added, a little
    // unchanged context kept, far-off unchanged stretches folded to one line.
    static QString changesFrom(const QString &base, const QString &text);

private:
    std::optional<Row> m_base;
    Row m_theirs;
    Row m_mine;
    QList<Field> m_fields;
};
