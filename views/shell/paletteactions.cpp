#include "views/shell/paletteactions.h"

#include "views/shell/commandpalette.h"

#include <QAction>

PaletteActions::PaletteActions(QMenuBar *menus, QWidget *window)
    : QObject(window), m_palette(new CommandPalette(menus, window)),
      m_commands(new QAction(tr("&Command Palette…"), this)),
      m_goTo(new QAction(tr("&Go to Row or Command…"), this))
{
    m_commands->setObjectName(QStringLiteral("commandPaletteAction"));
    m_commands->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_commands->setStatusTip(tr("Run any command by typing part of its name"));
    connect(m_commands, &QAction::triggered, this, [this] { m_palette->open(QStringLiteral(">")); });
    m_goTo->setObjectName(QStringLiteral("goToAction"));
    m_goTo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_goTo->setStatusTip(tr("Go to any row, or run any command, by typing part of its name"));
    connect(m_goTo, &QAction::triggered, this, [this] { m_palette->open(); });
    connect(m_palette, &CommandPalette::rowChosen, this, &PaletteActions::rowChosen);
}

void PaletteActions::setDocument(DirectoryDocument *document)
{
    m_palette->setDocument(document);
}
