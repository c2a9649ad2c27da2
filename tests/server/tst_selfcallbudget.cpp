#include "dispatch/receipts/receiptlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QByteArray ownerKey = QByteArrayLiteral("self-call-budget-owner-key");

} // namespace

// Issue 13, item 4: an http row whose target is this server's own /api/dispatch. The
// server it reaches starts a new call tree, which without the Capdesk-Call-Budget header
// would start with a full budget each time and recurse until the dispatch timeout.
class TestSelfCallBudget : public QObject
{
    Q_OBJECT

private slots:
    void aSelfCallingRowRunsOutOfOneBudget();
};

void TestSelfCallBudget::aSelfCallingRowRunsOutOfOneBudget()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(u"self.db"_s);
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {u"init"_s, u"--db"_s, db}).exitCode, 0);
    const ProcessRun::Result token =
        ProcessRun::run(ServeProcess::program(), {u"token"_s, u"create"_s, u"--audience"_s, u"self"_s,
                                                  u"--keys"_s, u"SELF"_s, u"--db"_s, db,
                                                  // SELF is written through the server below.
                                                  u"--allow-unknown"_s});
    QCOMPARE(token.exitCode, 0);
    qputenv("CAPDESK_TEST_SELF_TOKEN",
            QJsonDocument::fromJson(token.out).object().value(u"value"_s).toString().toUtf8());

    ServeProcess served;
    QString error;
    QVERIFY2(served.start(db, ownerKey, &error,
                          {u"--max-tree-calls"_s, u"5"_s, u"--dispatch-timeout"_s, u"8000"_s}),
             qPrintable(error));
    qunsetenv("CAPDESK_TEST_SELF_TOKEN");

    auto store = SqlDirectoryStore::open(db);
    QVERIFY(store.ok());
    Row self;
    self.key = u"SELF"_s;
    self.type = u"http"_s;
    self.target = u"POST %1/api/dispatch"_s.arg(served.baseUrl().toString());
    self.content = u"# WHAT: calls itself\n{\"key\":\"SELF\",\"body\":\"$1\",\"audience\":\"self\"}"_s;
    self.auth = u"bearer:CAPDESK_TEST_SELF_TOKEN"_s;
    self.updatedAt = u"2026-01-01T00:00:00.000Z"_s;
    QVERIFY(!store.value()->importRows({self}).isError());

    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(served.baseUrl().toString() + u"/api/dispatch"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("x-terminal-key", ownerKey);
    std::unique_ptr<QNetworkReply> reply(
        network.post(request, QByteArrayLiteral(R"({"key":"SELF","body":"go"})")));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QString result = QJsonDocument::fromJson(reply->readAll()).object().value(u"result"_s).toString();
    // The fifth call leaves nothing: the sixth, at the bottom of the chain, is refused, and
    // quotes the budget its header left it, not the server's five.
    QVERIFY2(result.contains(u"call_budget: the call tree may make 0 calls in all, and 0 are left"_s),
             qPrintable(result.left(400)));
    const StoreResult<QList<Receipt>> receipts =
        ReceiptLog(store.value()->database()).list({u"SELF"_s, {}, -1});
    QVERIFY(receipts.ok());
    QCOMPARE(receipts.value().size(), 5);
}

QTEST_GUILESS_MAIN(TestSelfCallBudget)
#include "tst_selfcallbudget.moc"
