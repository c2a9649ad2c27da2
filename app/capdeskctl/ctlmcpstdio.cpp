#include "app/capdeskctl/ctlmcpstdio.h"

#include <cerrno>
#include <unistd.h>

CtlMcpStdio::CtlMcpStdio(QObject *parent) : QObject(parent), m_notifier(STDIN_FILENO, QSocketNotifier::Read)
{
    connect(&m_notifier, &QSocketNotifier::activated, this, &CtlMcpStdio::readAvailable);
}

void CtlMcpStdio::write(const QByteArray &message)
{
    // One write per message and its line end, whole, so lines never interleave.
    const QByteArray line = message + '\n';
    qsizetype done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, line.constData() + done, size_t(line.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // the client is gone; stdin's end says so next
        done += n;
    }
}

void CtlMcpStdio::readAvailable()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        m_notifier.setEnabled(false);
        // The last message may lack its line end.
        m_pending.append('\n');
        takeLines();
        emit closed();
        return;
    }
    m_pending.append(buffer, n);
    takeLines();
}

void CtlMcpStdio::takeLines()
{
    for (;;) {
        const qsizetype end = m_pending.indexOf('\n');
        if (end < 0)
            break;
        const QByteArray line = m_pending.left(end).trimmed();
        m_pending.remove(0, end + 1);
        if (m_skipping) {
            m_skipping = false;
            emit oversized(m_skipped + end);
            continue;
        }
        if (line.size() > kMaxMessageBytes)
            emit oversized(line.size());
        else if (!line.isEmpty())
            emit message(line);
    }
    if (m_pending.size() > kMaxMessageBytes) {
        m_skipped = (m_skipping ? m_skipped : 0) + m_pending.size();
        m_skipping = true;
        m_pending.clear();
    }
}
