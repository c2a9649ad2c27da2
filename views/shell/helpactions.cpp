#include "views/shell/helpactions.h"

#include "views/shell/shortcutsdialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenuBar>
#include <QMessageBox>

HelpActions::HelpActions(QMenuBar *menus, QWidget *window)
    : QObject(window), m_menus(menus), m_window(window),
      m_shortcutsAction(new QAction(tr("&Keyboard Shortcuts"), this)),
      m_aboutAction(new QAction(tr("&About Capdesk"), this))
{
    m_shortcutsAction->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    m_shortcutsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    connect(m_shortcutsAction, &QAction::triggered, this, &HelpActions::showShortcuts);
    m_aboutAction->setObjectName(QStringLiteral("aboutAction"));
    connect(m_aboutAction, &QAction::triggered, this, &HelpActions::showAbout);
}

void HelpActions::showShortcuts()
{
    // Built when asked, so it names the menus as they are now.
    if (m_shortcuts)
        m_shortcuts->close();
    m_shortcuts = new ShortcutsDialog(m_menus, m_window);
    m_shortcuts->setAttribute(Qt::WA_DeleteOnClose);
    m_shortcuts->show();
}

void HelpActions::showAbout()
{
    QMessageBox::about(m_window, tr("About Capdesk"),
                       tr("<h3>Capdesk %1</h3><p>The desktop for a capability directory: one SQL row "
                          "per callable capability, curated, debugged and receipted.</p>"
                          "<p>Built with Qt %2.</p>")
                           .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}
