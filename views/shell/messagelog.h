#pragma once

#include <QDialog>

class QPlainTextEdit;

// View → Messages: every message the status bar showed this session, in full and with its
// time, so one cut at the window's edge or gone after its seconds can still be read. Not
// modal; kept in memory only, the latest maxMessages of them.
class MessageLog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageLog)

public:
    static constexpr int maxMessages = 1000;

    explicit MessageLog(QWidget *parent = nullptr);

    void add(const QString &message);
    QString text() const;

private:
    QPlainTextEdit *m_text;
};
