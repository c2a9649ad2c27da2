#include "server/httpconnection.h"

#include "server/accesslog.h"
#include "server/gatedsocket.h"
#include "server/requestheadparser.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace {

// The client's socket reads no further ahead than this while a request is answered, so
// TCP holds back the rest.
constexpr qint64 kClientReadBuffer = 64 * 1024;
// After a refusal on the head the client may still be sending the body it announced.
// Closing with its bytes unread would reset the connection, and a reset can destroy the
// refusal before the client reads it; so the rest is read and dropped, for this long and
// up to this much, before the close.
constexpr int kLingerMs = 2000;
constexpr qint64 kLingerBytes = 8 * 1024 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 408:
        return "Request Timeout";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    default:
        return "Refused";
    }
}

} // namespace

HttpConnection::HttpConnection(QTcpSocket *client, const ConnectionLimits &limits, HeadCheck check,
                               QObject *parent)
    : QObject(parent), m_client(client), m_limits(limits), m_check(std::move(check))
{
    m_client->setParent(this);
    m_client->setReadBufferSize(kClientReadBuffer);
    m_socket = new GatedSocket(this, *m_client);
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(m_limits.requestTimeoutMs);
    m_idle.setSingleShot(true);
    m_idle.setInterval(m_limits.idleTimeoutMs);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        refuse(408, "the request did not arrive whole within " + QByteArray::number(m_limits.requestTimeoutMs)
                        + " ms");
    });
    connect(&m_idle, &QTimer::timeout, this, &HttpConnection::cutOff);
    connect(m_client, &QTcpSocket::readyRead, this, &HttpConnection::readClient);
    connect(m_client, &QTcpSocket::bytesWritten, this, &HttpConnection::wroteToClient);
    connect(m_client, &QTcpSocket::disconnected, this, [this] {
        m_deadline.stop();
        m_idle.stop();
        if (m_socket)
            m_socket->end();
        deleteLater();
    });
    restartIdle();
}

HttpConnection::~HttpConnection()
{
    if (m_socket)
        m_socket->end();
}

HttpConnection *HttpConnection::of(QTcpSocket *socket)
{
    const auto *gated = qobject_cast<GatedSocket *>(socket);
    return gated ? gated->connection() : nullptr;
}

GatedSocket *HttpConnection::socket() const
{
    return m_socket;
}

void HttpConnection::readClient()
{
    if (m_phase == Phase::Closing) {
        m_discarded += m_client->skip(m_client->bytesAvailable());
        if (m_discarded > kLingerBytes)
            m_client->abort();
        return;
    }
    if (m_phase == Phase::Head)
        readHead();
    if (m_phase == Phase::Body)
        readBody();
}

void HttpConnection::readHead()
{
    if (m_client->bytesToWrite() > m_limits.maxUnsentBytes)
        return; // wroteToClient() comes back once the client has caught up
    const qint64 room = m_limits.maxHeaderBytes - m_pending.size();
    const QByteArray arrived = room > 0 ? m_client->read(room) : QByteArray();
    if (!arrived.isEmpty())
        restartIdle();
    m_pending += arrived;
    if (m_pending.isEmpty())
        return;
    if (!m_deadline.isActive()) {
        m_deadline.start();
        m_started.start();
    }
    const RequestHeadParser::Verdict verdict = RequestHeadParser::parse(
        m_pending, {m_limits.maxHeaderBytes, m_limits.maxHeaderCount, m_limits.maxBodyBytes});
    if (verdict.state == RequestHeadParser::State::Incomplete)
        return;
    if (verdict.state == RequestHeadParser::State::Refused) {
        refuse(verdict.status, verdict.reason);
        return;
    }
    if (std::optional<ServerReply> refusal = m_check(verdict.head)) {
        refuse(*refusal);
        return;
    }
    m_head = verdict.head;
    m_pending.remove(0, m_head.headBytes);
    m_bodyLeft = m_head.contentLength;
    m_phase = m_bodyLeft > 0 ? Phase::Body : Phase::Answering;
    if (m_phase == Phase::Answering) {
        m_deadline.stop();
        m_idle.stop();
    }
    m_socket->release(RequestHeadParser::canonical(m_head));
}

void HttpConnection::readBody()
{
    QByteArray chunk = m_pending.left(m_bodyLeft);
    m_pending.remove(0, chunk.size());
    if (chunk.size() < m_bodyLeft)
        chunk += m_client->read(m_bodyLeft - chunk.size());
    if (chunk.isEmpty())
        return;
    restartIdle();
    m_bodyLeft -= chunk.size();
    if (m_bodyLeft == 0) {
        m_phase = Phase::Answering;
        m_deadline.stop();
        m_idle.stop();
    }
    m_socket->release(chunk);
}

void HttpConnection::answered(bool close)
{
    if (m_phase != Phase::Answering)
        return;
    if (close || m_head.closeAfter) {
        closeAfterWriting();
        return;
    }
    m_phase = Phase::Head;
    m_head = RequestHead();
    restartIdle();
    QMetaObject::invokeMethod(this, &HttpConnection::readClient, Qt::QueuedConnection);
}

void HttpConnection::wroteToClient()
{
    if (m_phase != Phase::Answering || m_client->bytesToWrite() > 0)
        restartIdle();
    if (m_phase == Phase::Head && m_client->bytesToWrite() <= m_limits.maxUnsentBytes)
        readClient();
}

void HttpConnection::exemptFromIdleTimeout()
{
    m_exempt = true;
    m_idle.stop();
}

qint64 HttpConnection::unsentBytes() const
{
    return m_client->bytesToWrite();
}

void HttpConnection::writeAnswer(QByteArrayView bytes)
{
    m_client->write(bytes.data(), bytes.size());
}

void HttpConnection::closeAfterWriting()
{
    // An ended stream is let go like any answer: a client that never takes its last bytes
    // is cut off at the idle timeout.
    m_exempt = false;
    m_phase = Phase::Closing;
    m_deadline.stop();
    restartIdle(); // a client that never takes the last answer is still let go
    m_client->disconnectFromHost();
}

void HttpConnection::refuse(int status, const QByteArray &message)
{
    refuse(ServerReply::error(status, QString::fromUtf8(message)));
}

void HttpConnection::refuse(const ServerReply &reply)
{
    m_client->write(
        "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' + reasonPhrase(reply.status)
        + "\r\nContent-Type: " + reply.contentType
        + "\r\nContent-Length: " + QByteArray::number(reply.body.size())
        + "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        + reply.body);
    // Once the head is through, what is pending is body, and the head's own fields name it.
    const auto [method, target] = m_phase == Phase::Head ? RequestHeadParser::requestLineSoFar(m_pending)
                                                         : std::pair(m_head.method, m_head.target);
    AccessLog::write(method, QUrl::fromEncoded(target), reply.status,
                     m_started.isValid() ? m_started.elapsed() : 0, m_client->peerAddress());
    m_pending.clear();
    m_phase = Phase::Closing;
    m_deadline.stop();
    restartIdle();
    QTimer::singleShot(kLingerMs, m_client, &QTcpSocket::disconnectFromHost);
    readClient();
}

void HttpConnection::cutOff()
{
    // A reset, not a close: a close leaves what the client never took queued in the kernel,
    // still held for it, behind a window the client keeps shut.
    const linger reset{1, 0};
    if (m_client->socketDescriptor() >= 0)
        ::setsockopt(int(m_client->socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    m_client->abort();
}

void HttpConnection::restartIdle()
{
    if (!m_exempt)
        m_idle.start();
}
