#pragma once

#include <QFutureSynchronizer>
#include <QWidget>

#include <memory>

class CallHistoryModel;
class ServerConnection;
class QTableView;
struct InvocationOutcome;
struct InvocationRequest;

// The Receipts dock for a directory on a server: the calls made from this window, each
// with what the server answers when asked to confirm its invocation id (keyless, off the
// GUI thread). The server's own receipt table is not reachable through SPEC §10, and
// the view says so instead of pretending.
class RemoteCallsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteCallsView)

public:
    explicit RemoteCallsView(std::shared_ptr<ServerConnection> connection, QWidget *parent = nullptr);

    CallHistoryModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }

    // A call made through the session: listed, and its invocation (if any) confirmed.
    void record(const InvocationRequest &request, const InvocationOutcome &outcome);
    // Asks the server again about every listed invocation.
    void confirmAll();

signals:
    void rowRequested(const QString &key);
    // An invocation's confirm answer arrived (for tests and the status bar).
    void confirmed(const QString &invocationId, const QString &confirmation);

private:
    void confirm(const QString &invocationId);

    std::shared_ptr<ServerConnection> m_connection;
    // Running confirms; destroyed (waited for) before m_connection, which they use.
    QFutureSynchronizer<QString> m_confirms;
    CallHistoryModel *m_model;
    QTableView *m_table;
};
