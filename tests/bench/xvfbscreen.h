#pragma once

#include <QProcess>
#include <QString>

// An X server of our own, so the figures do not depend on a desktop's compositor.
class XvfbScreen
{
public:
    ~XvfbScreen()
    {
        m_server.terminate();
        m_server.waitForFinished(5000);
    }

    bool start()
    {
        m_server.start(QStringLiteral("Xvfb"),
                       {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                        QStringLiteral("0"), QStringLiteral("1280x800x24"), QStringLiteral("-nolisten"),
                        QStringLiteral("tcp")});
        if (!m_server.waitForStarted(10000))
            return false;
        // -displayfd prints the display's number once the server accepts clients.
        while (!m_server.canReadLine()) {
            if (!m_server.waitForReadyRead(10000))
                return false;
        }
        m_display = u':' + QString::fromLatin1(m_server.readLine().trimmed());
        return true;
    }

    QString display() const { return m_display; }

private:
    QProcess m_server;
    QString m_display;
};
