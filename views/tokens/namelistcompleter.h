#pragma once

#include <QCompleter>

#include <utility>

class QLineEdit;
class QStringListModel;

// Completes the name under the cursor of a line edit that holds a comma-separated list
// (a token's keys or categories) from the names given. QLineEdit's own completion would
// complete the whole text, so this one watches the edit and replaces only the current item.
// Names match from their start, in any case, and go in as spelled in the directory.
class NameListCompleter final : public QCompleter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NameListCompleter)

public:
    explicit NameListCompleter(QLineEdit *edit);

    void setNames(const QStringList &names);

private:
    // The item the cursor is in: where it starts, and how long it is.
    std::pair<qsizetype, qsizetype> currentItem() const;
    void offer();
    void insertName(const QString &name);

    QLineEdit *m_edit;
    QStringListModel *m_names;
};
