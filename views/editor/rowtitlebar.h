#pragma once

#include <QWidget>

class QLabel;

// The line above the row editor: the row's type icon, its key, and whether it is new,
// edited, as saved, still being read or written, or could not be read.
class RowTitleBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowTitleBar)

public:
    enum class State { New, Modified, Saved, Loading, Saving, Unreadable };

    explicit RowTitleBar(QWidget *parent = nullptr);

    void showRow(const QString &type, const QString &key, State state);
    void clear();
    QString stateText() const;

private:
    QLabel *m_icon;
    QLabel *m_key;
    QLabel *m_state;
};
