#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrl>

#include <functional>
#include <utility>

class QThread;

// A server implementing only SPEC §10's table, over an in-memory map, as a third party
// might: no If-Match, no ETag (unless offerETags()), no paging, no change sequence, no
// capability tokens; the hygiene gate is one
// rule (a `# WHAT:` line). Dispatch runs http rows (`$N` in the URL) and `fn` echo rows
// only. It records every request (method, path with query, headers without the owner key,
// body), so a test can assert what a client sent, e.g. that a PATCH carried only the
// changed fields. It answers on a thread of its own, so a client blocking the test's
// thread (ServerConnection::send) still gets its answer; every method here is safe to
// call from the test's thread.
class MinimalServer final
{
public:
    struct Request
    {
        QByteArray method;
        QString pathAndQuery;
        QList<std::pair<QByteArray, QByteArray>> headers; // x-terminal-key removed
        QByteArray body;
        bool hadOwnerKey = false;

        QJsonObject json() const;
        QByteArray header(const QByteArray &name) const;
    };

    explicit MinimalServer(QByteArray ownerKey);
    ~MinimalServer();
    Q_DISABLE_COPY_MOVE(MinimalServer)

    bool listen(QString *error);
    QUrl baseUrl() const;

    QList<Request> requests() const;
    // The recorded requests with this method (and path, when given).
    QList<Request> requests(const QByteArray &method, const QString &pathAndQuery = {}) const;
    void clearRequests();

    // Test hooks: the table as it is, and a change made behind a client's back (stamps a
    // new updated_at, as another writer would).
    QJsonObject row(const QString &key) const;
    void changeBehindClients(const QString &key, const QJsonObject &fields);
    // Listings carry an ETag (a hash of the body) and a matching If-None-Match is
    // answered 304, as some third-party servers do.
    void offerETags(bool offer);
    // A dispatch naming any member but key, body and shape is answered 400, naming it, as a
    // server that reads SPEC §10's body strictly does.
    void refuseUnknownDispatchMembers(bool refuse);

private:
    class Http;

    // Runs `work` on the server's thread and waits for it.
    void onServerThread(const std::function<void()> &work) const;

    QThread *m_thread;
    Http *m_http; // lives on m_thread
    quint16 m_port = 0;
};
