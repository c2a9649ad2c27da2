#pragma once

#include <QDialog>

class QMenuBar;
class QTreeWidget;

// Help → Keyboard Shortcuts: every menu command with its keys, in menu order, and the keys
// that belong to no menu (moving from the filter into the rows, the palette's own keys).
// Typing filters the list.
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShortcutsDialog)

public:
    explicit ShortcutsDialog(const QMenuBar *menus, QWidget *parent = nullptr);

    // The keys shown for `command` ("Edit › Undo"); empty when it has none or is not listed.
    QString keysOf(const QString &command) const;

private:
    void filter(const QString &text);

    QTreeWidget *m_list;
};
