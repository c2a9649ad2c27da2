#include "dispatch/receipts/receiptlog.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/ownerreceipt.h"
#include "tests/support/storebackend.h"

#include <QTest>

using namespace Qt::StringLiterals;

// A batch of receipts in one transaction, each under its own savepoint: one that cannot be
// written fails alone, on a SQLite file and on a real PostgreSQL server alike. On
// PostgreSQL the failed INSERT aborts the transaction up to the savepoint, so the kept
// statements must still serve the receipts after it and the next batch.
class TestReceiptLog : public QObject
{
    Q_OBJECT

public:
    explicit TestReceiptLog(StoreBackend::Kind kind) : m_backend(kind) {}

private slots:
    void initTestCase();
    void aReceiptThatCannotBeWrittenFailsAlone();

private:
    StoreBackend m_backend;
};

void TestReceiptLog::initTestCase()
{
    qInfo("engine: %s", qPrintable(m_backend.name()));
    QVERIFY2(m_backend.start(), "the PostgreSQL server of this run did not start (see the warning above)");
}

void TestReceiptLog::aReceiptThatCannotBeWrittenFailsAlone()
{
    auto opened = SqlDirectoryStore::open(m_backend.freshLocation());
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    const SigningKey key = SigningKey::generate();
    ReceiptLog log(opened.value()->database());

    const Receipt first = OwnerReceipt::fresh(u"FIRST"_s, u"FIRST"_s);
    Receipt again = OwnerReceipt::fresh(u"AGAIN"_s, u"AGAIN"_s);
    again.invocationId = first.invocationId;
    const QList<StoreError> errors =
        log.appendBatch({first, again, OwnerReceipt::fresh(u"AFTER"_s, u"AFTER"_s)}, key);
    QCOMPARE(errors.size(), 3);
    QVERIFY2(!errors[0].isError(), qPrintable(errors[0].message));
    QVERIFY(errors[1].isError());
    QVERIFY2(errors[1].message.contains(first.invocationId), qPrintable(errors[1].message));
    QVERIFY2(!errors[2].isError(), qPrintable(errors[2].message));
    // Twice more, so the kept statements serve batches after the failed one.
    for (const QString &next : {u"NEXT"_s, u"LAST"_s}) {
        const QList<StoreError> written = log.appendBatch({OwnerReceipt::fresh(next, next)}, key);
        QVERIFY2(!written.constFirst().isError(), qPrintable(written.constFirst().message));
    }

    const StoreResult<QList<Receipt>> stored = log.list({});
    QVERIFY2(stored.ok(), qPrintable(stored.error().message));
    QStringList keys;
    for (const Receipt &written : stored.value())
        keys.append(written.key);
    keys.sort();
    QCOMPARE(keys, (QStringList{u"AFTER"_s, u"FIRST"_s, u"LAST"_s, u"NEXT"_s}));
    const StoreResult<ReceiptLogAudit::Report> audit =
        ReceiptLogAudit::run(opened.value()->database(), {key.publicKey()});
    QVERIFY2(audit.ok(), qPrintable(audit.error().message));
    QVERIFY2(audit.value().intact(), qPrintable(audit.value().summary()));
}

CAPDESK_TEST_ON_BOTH_BACKENDS(TestReceiptLog)

#include "tst_receiptlog.moc"
