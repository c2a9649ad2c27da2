#include "tests/remote/remotestorefixture.h"

#include "remote/serverconnection.h"
#include "tests/support/processrun.h"

#include <QTest>

using namespace Qt::StringLiterals;

void RemoteStoreFixture::startServers()
{
    QVERIFY(m_dir.isValid());
    const QString db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    QString error;
    QVERIFY2(m_serve.start(db, kOwnerKey, &error), qPrintable(error));
    QVERIFY2(m_minimal.listen(&error), qPrintable(error));
}

void RemoteStoreFixture::servers()
{
    QTest::addColumn<Server>("server");
    QTest::addRow("capdeskctl serve") << Server::Ours;
    QTest::addRow("SPEC-only server") << Server::Minimal;
}

QUrl RemoteStoreFixture::urlOf(Server server) const
{
    return server == Server::Ours ? m_serve.baseUrl() : m_minimal.baseUrl();
}

std::shared_ptr<RemoteDirectoryStore> RemoteStoreFixture::storeFor(Server server, const QByteArray &key,
                                                                   int timeoutMs) const
{
    return std::make_shared<RemoteDirectoryStore>(std::make_shared<ServerConnection>(
        ServerEndpoint{urlOf(server), QString::fromLatin1(key), timeoutMs}));
}

QString RemoteStoreFixture::uniqueKey(const char *stem)
{
    return u"ZZ_%1_%2"_s.arg(QLatin1String(stem)).arg(++m_keys);
}
