#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QMenuBar;
class QWidget;
class ShortcutsDialog;

// The Help menu: Keyboard Shortcuts (Ctrl+/), a list of every key the menus hold built
// when asked, one open at a time; and About, with the version CMake stamps and Qt's.
class HelpActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HelpActions)

public:
    HelpActions(QMenuBar *menus, QWidget *window);

    QAction *shortcutsAction() const { return m_shortcutsAction; }
    QAction *aboutAction() const { return m_aboutAction; }

    void showShortcuts();
    void showAbout();

private:
    QMenuBar *m_menus;
    QWidget *m_window;
    QAction *m_shortcutsAction;
    QAction *m_aboutAction;
    QPointer<ShortcutsDialog> m_shortcuts;
};
