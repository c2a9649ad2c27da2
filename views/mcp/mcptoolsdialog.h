#pragma once

#include <QDialog>

#include <memory>

class DirectoryStore;
class McpToolListModel;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

// Tools → MCP Tools…: exactly what an MCP client is handed for the chosen projection
// (rows: one tool per listed row; contract: the three tools of the one contract), each
// tool's size in bytes and estimated tokens, the total, and the selected tool's JSON.
// The article's context-cost problem, shown before a client meets it.
class McpToolsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpToolsDialog)

public:
    McpToolsDialog(std::shared_ptr<const DirectoryStore> store, QWidget *parent = nullptr);

    McpToolListModel *model() const { return m_model; }
    QComboBox *projectionCombo() const { return m_projection; }
    QTableView *table() const { return m_table; }
    QString summaryText() const;
    QString previewText() const;

private:
    void reload();
    void showSummary(const QString &error);
    void showSelected();

    std::shared_ptr<const DirectoryStore> m_store;
    McpToolListModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QComboBox *m_projection;
    QLabel *m_summary;
    QTableView *m_table;
    QPlainTextEdit *m_preview;
};
