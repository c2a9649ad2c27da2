#pragma once

#include <QList>
#include <QString>

class QAction;
class QMenuBar;

// One command of the menu bar with where it lives: "Edit › Undo" and its action.
struct MenuCommand
{
    QString path;
    QAction *action;
};

// The commands of a menu bar, submenus walked, separators and hidden actions left out, in
// menu order: what the command palette searches and the shortcut list shows.
class MenuCommands final
{
public:
    enum class Which { All, EnabledOnly };

    static QList<MenuCommand> of(const QMenuBar *menus, Which which);
    // "&Open…" → "Open".
    static QString plainText(const QString &text);
};
