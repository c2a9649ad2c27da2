#include "server/serveoptions.h"

ServeOptions ServeOptions::fromListen(const QString &listen, QString *error,
                                      std::optional<QSslConfiguration> tls)
{
    ServeOptions options;
    options.tls = std::move(tls);
    const qsizetype colon = listen.lastIndexOf(u':');
    if (colon <= 0) {
        *error = QStringLiteral("--listen wants HOST:PORT, e.g. 127.0.0.1:8787");
        return options;
    }
    QString host = listen.left(colon);
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    bool isNumber = false;
    const uint port = listen.mid(colon + 1).toUInt(&isNumber);
    // Port 0 asks the system for a free port; serve names the one it got once it listens.
    if (!isNumber || port > 65535) {
        *error = QStringLiteral("--listen: '%1' is not a port from 0 to 65535").arg(listen.mid(colon + 1));
        return options;
    }
    options.port = quint16(port);
    options.address =
        host == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(host);
    if (options.address.isNull())
        *error = QStringLiteral("--listen: '%1' is not an IP address").arg(host);
    else if (!options.address.isLoopback() && !options.tls)
        *error = QStringLiteral(
                     "--listen: %1 is not a loopback address; serve speaks plain HTTP with the owner key "
                     "in a header, so give it --tls-cert and --tls-key, or put a TLS reverse proxy in "
                     "front of a loopback listener")
                     .arg(host);
    return options;
}

QString ServeOptions::baseUrl() const
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(address.toString())
                             : address.toString();
    return QStringLiteral("%1://%2:%3")
        .arg(tls ? QLatin1String("https") : QLatin1String("http"), host)
        .arg(port);
}
