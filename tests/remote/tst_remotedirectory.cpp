#include "dispatch/store/directorystore.h"
#include "remote/remotedirectory.h"
#include "remote/serverconnection.h"

#include <QTest>

using namespace Qt::StringLiterals;

// A server's directory offers a store and a dispatcher, and says what it lacks by null:
// the server keeps its ledger, event log and tokens to itself.
class TestRemoteDirectory : public QObject
{
    Q_OBJECT

private slots:
    void aServerOffersOnlyWhatItHas();
};

void TestRemoteDirectory::aServerOffersOnlyWhatItHas()
{
    ServerEndpoint endpoint;
    endpoint.baseUrl = QUrl(u"http://127.0.0.1:9/"_s);
    const OpenDirectory directory = RemoteDirectory::over(std::make_shared<ServerConnection>(endpoint));
    QVERIFY(directory.isOpen());
    QVERIFY(directory.store->hasRoundTrips());
    QVERIFY(directory.store->location().startsWith(u"http://127.0.0.1:9"_s));
    QVERIFY(!directory.ledger);
    QVERIFY(!directory.history);
    QVERIFY(!directory.tokens);
    QVERIFY(!directory.builtinsAreLocal);
    QCOMPARE(directory.readOnlyColumns.keys(), (QStringList{u"runner"_s, u"sensitive"_s}));
    for (const QString &reason : directory.readOnlyColumns)
        QVERIFY(reason.contains(u"SPEC §10"_s));
}

QTEST_GUILESS_MAIN(TestRemoteDirectory)
#include "tst_remotedirectory.moc"
