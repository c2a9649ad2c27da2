#pragma once

#include <QByteArray>
#include <QObject>
#include <QSocketNotifier>

// MCP's stdio transport: newline-delimited JSON-RPC messages on stdin and stdout. stdout
// carries nothing but messages; everything else goes to stderr. A line longer than
// kMaxMessageBytes is dropped whole and reported (it cannot be answered: its id is unread).
class CtlMcpStdio final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CtlMcpStdio)

public:
    static constexpr qsizetype kMaxMessageBytes = 4 * 1024 * 1024;

    explicit CtlMcpStdio(QObject *parent = nullptr);

    void write(const QByteArray &message);

signals:
    void message(const QByteArray &line);
    void oversized(qsizetype bytes);
    void closed();

private:
    void readAvailable();
    void takeLines();

    QSocketNotifier m_notifier;
    QByteArray m_pending;
    bool m_skipping = false; // inside a line already over the limit
    qsizetype m_skipped = 0;
};
