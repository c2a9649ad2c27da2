#pragma once

#include "server/connectionlimits.h"
#include "server/requesthead.h"
#include "server/serverreply.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

class GatedSocket;
class QTcpSocket;

// One client connection of `capdeskctl serve`, between the client's socket and Qt's HTTP
// server (which sees only socket(), a GatedSocket). It reads each request head itself
// (RequestHeadParser), refuses a bad one or one its HeadCheck refuses before any body is
// read, and releases to Qt one request at a time: nothing after a request is read until
// its answer has been written whole (answered()) and the client has taken all but
// maxUnsentBytes of the answers before, so answers go out in order and a client that
// never reads holds at most that much. Deadlines: the whole request within
// requestTimeoutMs, and no idle stretch past idleTimeoutMs while no answer is being made.
// Its own refusals go to the access log like the server's answers.
class HttpConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpConnection)

public:
    // Judges a complete, well-formed head before its body is read (the owner key, a
    // capability token): the answer to refuse it with (status, content type and body).
    using HeadCheck = std::function<std::optional<ServerReply>(const RequestHead &)>;

    // Takes `client` (an open, connected socket) as its child.
    HttpConnection(QTcpSocket *client, const ConnectionLimits &limits, HeadCheck check, QObject *parent);
    ~HttpConnection() override;

    // The connection behind a socket Qt's server handed a handler; null for another socket.
    static HttpConnection *of(QTcpSocket *socket);

    GatedSocket *socket() const;
    // The answer to the request in flight has been written whole; `close` ends the
    // connection once it is sent (as the request's own Connection: close does).
    void answered(bool close);
    bool closesAfterAnswer() const { return m_head.closeAfter; }
    // For a long-lived answer (an event stream, which sends its own keep-alive comments):
    // the idle timeout no longer applies to this connection.
    void exemptFromIdleTimeout();

    qint64 unsentBytes() const;
    void writeAnswer(QByteArrayView bytes);
    void closeAfterWriting();

private:
    enum class Phase { Head, Body, Answering, Closing };

    void readClient();
    void readHead();
    void readBody();
    void wroteToClient();
    void refuse(int status, const QByteArray &message);
    void refuse(const ServerReply &reply);
    void restartIdle();
    // The idle timeout: the connection is reset.
    void cutOff();

    QTcpSocket *m_client;
    QPointer<GatedSocket> m_socket;
    ConnectionLimits m_limits;
    HeadCheck m_check;
    Phase m_phase = Phase::Head;
    RequestHead m_head;
    QByteArray m_pending; // read from the client, not yet given to Qt
    qint64 m_bodyLeft = 0;
    qint64 m_discarded = 0; // read and dropped after a refusal
    bool m_exempt = false;
    QElapsedTimer m_started; // since the request's first byte
    QTimer m_deadline;
    QTimer m_idle;
};
