#pragma once

#include <QtGlobal>

// A port on 127.0.0.1 where nothing listens, for "connection refused" tests: a TCP socket
// bound to port 0 and never put into listening, so a connect to it is refused, and no other
// process can take the port while this object holds it (unlike a probe closed again).
class RefusingPort final
{
public:
    RefusingPort();
    ~RefusingPort();
    Q_DISABLE_COPY_MOVE(RefusingPort)

    // 0 when the socket could not be bound.
    quint16 port() const { return m_port; }

private:
    int m_socket = -1;
    quint16 m_port = 0;
};
