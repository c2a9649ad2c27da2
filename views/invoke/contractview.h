#pragma once

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class QLabel;
class QTextBrowser;
class QTimer;

// The Contract tab: the row's contract document (SPEC §9) rendered as Markdown, with its
// size in bytes and estimated tokens, which is what exposing the row costs a model's
// context. Re-rendered a moment after typing stops, and only while the tab is visible.
class ContractView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContractView)

public:
    explicit ContractView(QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    void showRow(const QString &key);

    QString sizeText() const;
    QString markdown() const { return m_markdown; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void render();
    void renderSoon();

    QPointer<DirectoryDocument> m_document;
    QString m_key;
    QString m_markdown;
    bool m_stale = true;
    QLabel *m_size;
    QTextBrowser *m_browser;
    QTimer *m_delay;
};
