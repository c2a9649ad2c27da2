#include "views/shell/menucommands.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

namespace {

void collect(const QString &path, const QList<QAction *> &actions, MenuCommands::Which which,
             QList<MenuCommand> &into)
{
    for (QAction *action : actions) {
        if (action->isSeparator() || !action->isVisible() || action->text().isEmpty())
            continue;
        const QString here = path + QStringLiteral(" › ") + MenuCommands::plainText(action->text());
        if (QMenu *menu = action->menu())
            collect(here, menu->actions(), which, into);
        else if (which == MenuCommands::Which::All || action->isEnabled())
            into.append({here, action});
    }
}

} // namespace

QList<MenuCommand> MenuCommands::of(const QMenuBar *menus, Which which)
{
    QList<MenuCommand> commands;
    for (QAction *menuAction : menus->actions()) {
        if (QMenu *menu = menuAction->menu())
            collect(plainText(menu->title()), menu->actions(), which, commands);
    }
    return commands;
}

QString MenuCommands::plainText(const QString &text)
{
    static const QRegularExpression mnemonic(QStringLiteral("&(?!&)"));
    QString plain = text;
    plain.remove(mnemonic);
    plain.replace(QStringLiteral("&&"), QStringLiteral("&"));
    plain.remove(QStringLiteral("…"));
    return plain.trimmed();
}
