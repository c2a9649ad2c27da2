#include "dispatch/call/dispatcher.h"
#include "dispatch/directory/localdirectory.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitytokenstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

// A directory file opens as every capability a local file has; callers never learn the
// kind of store behind them.
class TestLocalDirectory : public QObject
{
    Q_OBJECT

private slots:
    void aFileOffersEveryCapability();
    void aFileThatIsNoDirectoryIsRefusedAndKept();
    void theTokensKeepTheirLedgerAlive();
};

void TestLocalDirectory::aFileOffersEveryCapability()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"d.db"_s);
    const StoreResult<OpenDirectory> opened = LocalDirectory::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const OpenDirectory &directory = opened.value();
    QVERIFY(directory.isOpen());
    QCOMPARE(directory.store->location(), path);
    QVERIFY(!directory.store->hasRoundTrips());
    QVERIFY(directory.dispatcher);
    QVERIFY(directory.ledger);
    QVERIFY(directory.history);
    QVERIFY(directory.tokens);
    QVERIFY(directory.builtinsAreLocal);
    QVERIFY(directory.readOnlyColumns.isEmpty());
    // The capabilities are of the same file: a write through the store is in the history.
    Row row;
    row.key = u"NOTE"_s;
    row.type = u"fn"_s;
    row.target = u"upper"_s;
    QVERIFY(!directory.store->importRows({row}).isError());
    const StoreResult<QList<LogEvent>> events = directory.history->events(u"NOTE"_s);
    QVERIFY(events.ok());
    QCOMPARE(events.value().size(), 1);
    QCOMPARE(directory.ledger->store()->location(), path);
}

void TestLocalDirectory::aFileThatIsNoDirectoryIsRefusedAndKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"notes.txt"_s);
    const QByteArray text = "not a database, and not to be touched\n";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
    const StoreResult<OpenDirectory> opened = LocalDirectory::open(path);
    QVERIFY(!opened.ok());
    QCOMPARE(opened.error().kind, StoreError::Kind::NotDirectory);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), text);
}

void TestLocalDirectory::theTokensKeepTheirLedgerAlive()
{
    QTemporaryDir dir;
    std::shared_ptr<CapabilityTokenStore> tokens;
    {
        const StoreResult<OpenDirectory> opened = LocalDirectory::open(dir.filePath(u"d.db"_s));
        QVERIFY(opened.ok());
        tokens = opened.value().tokens;
    }
    const StoreResult<QList<CapabilityToken>> listed = tokens->list();
    QVERIFY2(listed.ok(), qPrintable(listed.error().message));
    QVERIFY(listed.value().isEmpty());
}

QTEST_GUILESS_MAIN(TestLocalDirectory)
#include "tst_localdirectory.moc"
