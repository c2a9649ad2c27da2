#pragma once

#include <QObject>

class DirectorySession;
class QAction;
class QWidget;

// Tools → MCP Tools…: what an MCP client is handed for the open directory.
class McpActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpActions)

public:
    McpActions(DirectorySession &session, QWidget *dialogParent, QObject *parent = nullptr);

    QAction *toolsAction() const { return m_tools; }
    void openTools();

private:
    DirectorySession &m_session;
    QWidget *m_dialogParent;
    QAction *m_tools;
};
