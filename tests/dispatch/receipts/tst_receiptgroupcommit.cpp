#include "dispatch/call/invocationhandle.h"
#include "dispatch/receipts/receiptgroupcommit.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/runners/httprunner.h"
#include "tests/dispatch/flowtestdirectory.h"
#include "tests/support/rawsql.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <dlfcn.h>
#include <functional>

using namespace Qt::StringLiterals;

// Every durable flush SQLite asks of the kernel, counted as it passes through to the real
// call: the executable's definitions come before libc's for the SQLite library.
namespace {
std::atomic<int> g_flushes{0};

template<typename Fn>
Fn realCall(const char *name)
{
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}
} // namespace

extern "C" int fsync(int fd)
{
    static const auto real = realCall<int (*)(int)>("fsync");
    ++g_flushes;
    return real(fd);
}

extern "C" int fdatasync(int fd)
{
    static const auto real = realCall<int (*)(int)>("fdatasync");
    ++g_flushes;
    return real(fd);
}

// Group commit (issue 17): calls that finish together share one durable flush, no caller
// hears back before its receipt's flush, a flow's steps ride on its own receipt's flush,
// and a step that changes the world goes out only after what came before it is on disk.
class TestReceiptGroupCommit : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void theStoreWritesWithSynchronousFull();
    void concurrentCallsShareAFlushAndAnswerAfterIt_data();
    void concurrentCallsShareAFlushAndAnswerAfterIt();
    void aFlowOfTenStepsCostsAtMostTwoFlushes();
    void aStepThatChangesTheWorldWaitsForItsPredecessorsReceipts();
    void aStepReceiptThatCannotBeWrittenFailsItsFlowsReceipt();
    void aStepThatChangesTheWorldDoesNotRunWhenEarlierReceiptsFailed();
    void aStepReceiptReachesTheDiskWhileItsFlowStillRuns();

private:
    qint64 receiptsOnDisk(const QString &where) const;
    // SEND, an http POST row to `upstream` on 127.0.0.1, which runs `onPost` per request.
    bool addSendRow(QHttpServer &upstream, std::function<void()> onPost);
    // The disk refusing ECHO's receipts, as SQL: a step's write fails inside its batch.
    QString refuseEchoReceipts() const;

    HttpClient m_client;

    std::unique_ptr<FlowTestDirectory> m_directory;
};

void TestReceiptGroupCommit::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    // The signing key is made, and the pre-chain receipts sealed, before any count starts.
    QVERIFY(m_directory->roundTrip());
}

// Read through a connection of its own, as another process would see the file.
qint64 TestReceiptGroupCommit::receiptsOnDisk(const QString &where) const
{
    const QString name = u"observer"_s;
    qint64 count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(m_directory->store->location());
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(u"SELECT count(*) FROM receipts WHERE "_s + where) && query.next())
                count = query.value(0).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return count;
}

bool TestReceiptGroupCommit::addSendRow(QHttpServer &upstream, std::function<void()> onPost)
{
    upstream.route(u"/send"_s, [onPost = std::move(onPost)](const QHttpServerRequest &) {
        onPost();
        return QHttpServerResponse(QByteArrayLiteral("text/plain"), QByteArrayLiteral("sent"));
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    if (port == 0)
        return false;
    m_directory->dispatcher->setRunner(u"http"_s, std::make_unique<HttpRunner>(m_client));
    const Row send =
        flowTestRow(u"SEND"_s, u"http"_s, u"POST http://127.0.0.1:%1/send"_s.arg(port), u"[\"$1+\"]"_s);
    return !m_directory->store->importRows({send}).isError();
}

QString TestReceiptGroupCommit::refuseEchoReceipts() const
{
    return RawSql::exec(m_directory->store->location(),
                        {u"CREATE TRIGGER refuse_echo BEFORE INSERT ON receipts WHEN NEW.key = 'ECHO' "
                         "BEGIN SELECT RAISE(ABORT, 'disk says no'); END"_s});
}

void TestReceiptGroupCommit::theStoreWritesWithSynchronousFull()
{
    QSqlQuery query(m_directory->store->database());
    QVERIFY(query.exec(u"PRAGMA synchronous"_s) && query.next());
    QCOMPARE(query.value(0).toInt(), 2);
    QVERIFY(query.exec(u"PRAGMA journal_mode"_s) && query.next());
    QCOMPARE(query.value(0).toString(), u"wal"_s);
}

void TestReceiptGroupCommit::concurrentCallsShareAFlushAndAnswerAfterIt_data()
{
    QTest::addColumn<int>("calls");
    QTest::newRow("1") << 1;
    QTest::newRow("16") << 16;
    QTest::newRow("600, over one batch") << 600;
}

void TestReceiptGroupCommit::concurrentCallsShareAFlushAndAnswerAfterIt()
{
    QFETCH(int, calls);
    const qint64 batchesBefore = m_directory->ledger->receiptBatches();
    const int flushesBefore = g_flushes;
    QList<InvocationHandle *> handles;
    QList<int> flushesWhenAnswered;
    QList<qint64> onDiskWhenAnswered;
    for (int i = 0; i < calls; ++i) {
        InvocationRequest request;
        request.key = u"SHOUT"_s;
        request.body = QString::number(i);
        InvocationHandle *handle = m_directory->dispatcher->invoke(request);
        connect(handle, &InvocationHandle::finished, this, [&, handle] {
            flushesWhenAnswered.append(g_flushes - flushesBefore);
            onDiskWhenAnswered.append(
                receiptsOnDisk(u"invocation_id = '%1'"_s.arg(handle->outcome().receipt->invocationId)));
        });
        handles.append(handle);
    }
    QTRY_COMPARE_WITH_TIMEOUT(flushesWhenAnswered.size(), calls, 20000);
    for (InvocationHandle *handle : std::as_const(handles)) {
        QVERIFY2(handle->outcome().receipt, qPrintable(handle->outcome().receiptError));
        delete handle;
    }
    for (int i = 0; i < calls; ++i) {
        QVERIFY2(flushesWhenAnswered[i] >= 1, "a call was answered before any flush");
        QCOMPARE(onDiskWhenAnswered[i], 1);
    }
    // The builtins run on a pool, so their answers reach the queue over a few turns of
    // the event loop; sharing is what counts, and no batch is over its cap.
    const qint64 batches = m_directory->ledger->receiptBatches() - batchesBefore;
    const qint64 fewest = (calls + ReceiptGroupCommit::kMaxBatch - 1) / ReceiptGroupCommit::kMaxBatch;
    QVERIFY2(batches >= fewest && batches <= qMax(fewest, qint64(calls / 4)),
             qPrintable(u"%1 batches for %2 calls"_s.arg(batches).arg(calls)));
    // A WAL commit is one flush; a checkpoint may add a few, never one per call.
    const int flushes = g_flushes - flushesBefore;
    QVERIFY2(flushes >= batches && flushes <= batches + 3,
             qPrintable(u"%1 flushes for %2 calls in %3 batches"_s.arg(flushes).arg(calls).arg(batches)));
    QCOMPARE(receiptsOnDisk(u"key = 'SHOUT'"_s), calls);
}

void TestReceiptGroupCommit::aFlowOfTenStepsCostsAtMostTwoFlushes()
{
    QStringList steps{u"ECHO: go"_s};
    for (int i = 1; i < 10; ++i)
        steps.append(i % 2 ? u"SHOUT"_s : u"ECHO: $PREV"_s);
    QVERIFY(m_directory->addFlow(u"TEN"_s, steps.join(u" > "_s)));
    const int flushesBefore = g_flushes;
    const InvocationOutcome outcome = m_directory->invoke(u"TEN"_s, QString());
    const int flushes = g_flushes - flushesBefore;
    QCOMPARE(outcome.result.output, u"GO"_s);
    QVERIFY2(outcome.receipt, qPrintable(outcome.receiptError));
    QVERIFY2(flushes >= 1 && flushes <= 2, qPrintable(u"%1 flushes"_s.arg(flushes)));
    QCOMPARE(m_directory->receipts({}, outcome.receipt->invocationId).size(), 10);
    QCOMPARE(receiptsOnDisk(u"trace = '%1'"_s.arg(outcome.receipt->trace)), 11);
}

void TestReceiptGroupCommit::aStepThatChangesTheWorldWaitsForItsPredecessorsReceipts()
{
    QHttpServer upstream;
    qint64 receiptsBeforeThePost = -1;
    QVERIFY(
        addSendRow(upstream, [&] { receiptsBeforeThePost = receiptsOnDisk(u"key IN ('SHOUT', 'ECHO')"_s); }));
    QVERIFY(m_directory->addFlow(u"NOTIFY"_s, u"ECHO: hello > SHOUT > SEND: $PREV"_s));
    const qint64 before = receiptsOnDisk(u"key IN ('SHOUT', 'ECHO')"_s);

    const InvocationOutcome outcome = m_directory->invoke(u"NOTIFY"_s, QString());
    QCOMPARE(outcome.result.output, u"HTTP 200:sent"_s);
    QVERIFY2(outcome.receipt, qPrintable(outcome.receiptError));
    QCOMPARE(receiptsBeforeThePost, before + 2);
}

void TestReceiptGroupCommit::aStepReceiptThatCannotBeWrittenFailsItsFlowsReceipt()
{
    QCOMPARE(refuseEchoReceipts(), QString());
    QVERIFY(m_directory->addFlow(u"LOUD"_s, u"ECHO: quiet > SHOUT"_s));
    QVERIFY(m_directory->addFlow(u"CALM"_s, u"SHOUT: calm"_s));
    // A flow beside it under the same trace (a caller may name one) is not blamed.
    InvocationRequest loud;
    loud.key = u"LOUD"_s;
    loud.trace = u"t_shared"_s;
    InvocationRequest calm = loud;
    calm.key = u"CALM"_s;
    InvocationHandle *loudHandle = m_directory->dispatcher->invoke(loud);
    InvocationHandle *calmHandle = m_directory->dispatcher->invoke(calm);
    const InvocationOutcome outcome = FlowTestDirectory::await(loudHandle);
    const InvocationOutcome beside = FlowTestDirectory::await(calmHandle);
    QVERIFY2(beside.receipt, qPrintable(beside.receiptError));
    QCOMPARE(outcome.result.output, u"QUIET"_s);
    QVERIFY(!outcome.receipt);
    QVERIFY2(outcome.receiptError.contains(u"its step ECHO"_s), qPrintable(outcome.receiptError));
    QVERIFY2(outcome.receiptError.contains(u"disk says no"_s), qPrintable(outcome.receiptError));
    // The others were written all the same: the flow's own and the SHOUT steps'.
    QCOMPARE(receiptsOnDisk(u"key = 'LOUD'"_s), 1);
    QCOMPARE(m_directory->receipts(u"SHOUT"_s).size(), 2);
    QVERIFY(m_directory->receipts(u"ECHO"_s).isEmpty());
    // The next flow is not blamed for the old loss.
    QCOMPARE(RawSql::exec(m_directory->store->location(), {u"DROP TRIGGER refuse_echo"_s}), QString());
    const InvocationOutcome next = m_directory->invoke(u"LOUD"_s, QString());
    QVERIFY2(next.receipt, qPrintable(next.receiptError));
}

void TestReceiptGroupCommit::aStepThatChangesTheWorldDoesNotRunWhenEarlierReceiptsFailed()
{
    QHttpServer upstream;
    int posts = 0;
    QVERIFY(addSendRow(upstream, [&] { ++posts; }));
    QVERIFY(m_directory->addFlow(u"NOTIFY"_s, u"ECHO: hello > SEND: $PREV"_s));
    QCOMPARE(refuseEchoReceipts(), QString());

    const InvocationOutcome outcome = m_directory->invoke(u"NOTIFY"_s, QString());
    QVERIFY2(outcome.result.output.contains(
                 u"not run: the receipts of the calls before it could not be written"_s),
             qPrintable(outcome.result.output));
    QVERIFY2(outcome.result.output.contains(u"disk says no"_s), qPrintable(outcome.result.output));
    QCOMPARE(posts, 0);
    QVERIFY2(outcome.receiptError.contains(u"its step ECHO"_s), qPrintable(outcome.receiptError));
}

void TestReceiptGroupCommit::aStepReceiptReachesTheDiskWhileItsFlowStillRuns()
{
    QVERIFY(m_directory->addFlow(u"SLOW"_s, u"SHOUT: first > NAP: 1500"_s));
    InvocationRequest request;
    request.key = u"SLOW"_s;
    InvocationHandle *handle = m_directory->dispatcher->invoke(request);
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(receiptsOnDisk(u"key = 'SHOUT'"_s), 1, 1000);
    QVERIFY2(clock.elapsed() < 1000, "the step's receipt waited for the flow's end");
    QVERIFY(!handle->isFinished());
    const InvocationOutcome outcome = FlowTestDirectory::await(handle);
    QVERIFY2(outcome.receipt, qPrintable(outcome.receiptError));
}

QTEST_GUILESS_MAIN(TestReceiptGroupCommit)
#include "tst_receiptgroupcommit.moc"
