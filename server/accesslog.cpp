#include "server/accesslog.h"

#include <QSet>
#include <QUrlQuery>

#include <cstdio>

QString AccessLog::redactedTarget(const QUrl &url)
{
    static const QSet<QString> shown{QStringLiteral("key"), QStringLiteral("format"),
                                     QStringLiteral("registry"), QStringLiteral("confirm"),
                                     QStringLiteral("category")};
    QString target = url.path(QUrl::FullyEncoded);
    const QList<std::pair<QString, QString>> items = QUrlQuery(url).queryItems(QUrl::FullyEncoded);
    for (qsizetype i = 0; i < items.size(); ++i) {
        target += i == 0 ? u'?' : u'&';
        target += items.at(i).first + u'='
                  + (shown.contains(items.at(i).first) ? items.at(i).second : QStringLiteral("…"));
    }
    return target;
}

void AccessLog::write(const QByteArray &method, const QUrl &url, int status, qint64 ms,
                      const QHostAddress &peer)
{
    const QString target = redactedTarget(url);
    std::fprintf(stderr, "%s %s %d %lldms %s\n", method.isEmpty() ? "-" : method.constData(),
                 target.isEmpty() ? "-" : target.toUtf8().constData(), status, static_cast<long long>(ms),
                 peer.isNull() ? "-" : peer.toString().toUtf8().constData());
    std::fflush(stderr);
}
