#pragma once

#include "dispatch/row/row.h"

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class QLabel;
class QPlainTextEdit;
class QTextBrowser;
class QTimer;

// The Contract tab: the row's contract document (SPEC §9) rendered as Markdown, with its
// size in bytes and estimated tokens, which is what exposing the row costs a model's
// context; below it, the row as an MCP client sees it (its tool in the rows projection,
// or why it is not listed) with that tool's size. Re-rendered a moment after typing
// stops, and only while the tab is visible.
class ContractView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContractView)

public:
    explicit ContractView(QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    void showRow(const QString &key);

    QString sizeText() const;
    QString toolSizeText() const;
    // The tool's JSON as shown, or the reason the row is no tool.
    QString toolText() const;
    QString markdown() const { return m_markdown; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void render();
    void renderSoon();
    void renderTool(const std::optional<Row> &row);

    QPointer<DirectoryDocument> m_document;
    QString m_key;
    QString m_markdown;
    bool m_stale = true;
    QLabel *m_size;
    QTextBrowser *m_browser;
    QLabel *m_toolSize;
    QPlainTextEdit *m_tool;
    QTimer *m_delay;
};
