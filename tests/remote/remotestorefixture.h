#pragma once

#include "remote/remotedirectorystore.h"
#include "tests/support/minimalserver.h"
#include "tests/support/serveprocess.h"

#include <QByteArray>
#include <QMetaType>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

// What the remote store's tests share: a real `capdeskctl serve` over a fresh directory
// and a server that implements only SPEC §10's table, both keyed with kOwnerKey, and the
// stores that reach them. A test class derives from it beside QObject, starts the servers
// in initTestCase() and stops serve in cleanupTestCase().
class RemoteStoreFixture
{
public:
    enum class Server { Ours, Minimal };

    static inline const QByteArray kOwnerKey = QByteArrayLiteral("tst-remote-owner-key-7f3a9c2e4b1d");

protected:
    // Records a test failure when either server cannot start.
    void startServers();
    // The `server` column of a _data() function: one row per server.
    static void servers();
    QUrl urlOf(Server server) const;
    std::shared_ptr<RemoteDirectoryStore> storeFor(Server server, const QByteArray &key = kOwnerKey,
                                                   int timeoutMs = 10000) const;
    // A key no other test of this executable has written.
    QString uniqueKey(const char *stem);

    QTemporaryDir m_dir;
    ServeProcess m_serve;
    MinimalServer m_minimal{kOwnerKey};

private:
    int m_keys = 0;
};

Q_DECLARE_METATYPE(RemoteStoreFixture::Server)
