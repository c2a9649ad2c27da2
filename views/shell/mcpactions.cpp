#include "views/shell/mcpactions.h"

#include "models/directorydocument.h"
#include "views/common/directorysession.h"
#include "views/mcp/mcptoolsdialog.h"

#include <QAction>

McpActions::McpActions(DirectorySession &session, QWidget *dialogParent, QObject *parent)
    : QObject(parent), m_session(session), m_dialogParent(dialogParent),
      m_tools(new QAction(tr("&MCP Tools…"), this))
{
    m_tools->setObjectName(QStringLiteral("mcpToolsAction"));
    m_tools->setStatusTip(tr("The tools an MCP client is handed for this directory, and what each costs"));
    connect(m_tools, &QAction::triggered, this, &McpActions::openTools);
}

void McpActions::openTools()
{
    if (!m_session.document())
        return;
    McpToolsDialog dialog(m_session.document()->sharedStore(), m_dialogParent);
    dialog.exec();
}
