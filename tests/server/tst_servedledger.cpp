#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-owner-key-refusal-logging-9f3e");

} // namespace

// The ledger behind `capdeskctl serve` (issue 13): anyone can send a made-up token, so
// those refusals must not grow the append-only event log one event each, while refusals
// of real tokens are still logged (item 11); the keyless confirm route confirms a call
// only with a receipt signed for it (item 9).
class TestServedLedger : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void bogusTokensAddABoundedNumberOfEvents();
    void confirmRefusesARowHoldingAnotherReceipt();

private:
    ProcessRun::Result ctl(const QStringList &arguments) const
    {
        return ProcessRun::run(ServeProcess::program(), arguments);
    }
    QJsonArray refusalEvents() const;
    // Sends `count` dispatches with `token`, `parallel` at a time; returns how many got `status`.
    int dispatchMany(const QByteArray &token, int count, int parallel, int status);
    // GET path on the running server; waits for the answer.
    std::pair<int, QByteArray> get(const QString &path);
    QString ownerInvoke(const QString &body);

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_server;
    QNetworkAccessManager m_network;
};

void TestServedLedger::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, m_db}).exitCode, 0);
}

QJsonArray TestServedLedger::refusalEvents() const
{
    const ProcessRun::Result log = ctl({u"log"_s, u"--db"_s, m_db});
    QJsonArray refusals;
    for (const QJsonValue &event : QJsonDocument::fromJson(log.out).object().value(u"events"_s).toArray()) {
        if (event.toObject().value(u"kind"_s).toString() == u"CAPABILITY_REFUSED"_s)
            refusals.append(event);
    }
    return refusals;
}

int TestServedLedger::dispatchMany(const QByteArray &token, int count, int parallel, int status)
{
    int sent = 0;
    int answered = 0;
    int matching = 0;
    QEventLoop loop;
    std::function<void()> sendOne = [&] {
        QNetworkRequest request(m_server.baseUrl().resolved(QUrl(u"/api/dispatch"_s)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        request.setRawHeader("Authorization", "Bearer " + token);
        request.setRawHeader("x-capability-audience", "tests");
        QNetworkReply *reply =
            m_network.post(request, QByteArrayLiteral(R"({"key":"UPPERCASE","body":"hi"})"));
        ++sent;
        connect(reply, &QNetworkReply::finished, &loop, [&, reply] {
            matching += reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == status;
            reply->deleteLater();
            if (++answered == count)
                loop.quit();
            else if (sent < count)
                sendOne();
        });
    };
    for (int i = 0; i < parallel && i < count; ++i)
        sendOne();
    QTimer::singleShot(120'000, &loop, &QEventLoop::quit);
    loop.exec();
    return matching;
}

void TestServedLedger::bogusTokensAddABoundedNumberOfEvents()
{
    const ProcessRun::Result minted = ctl(
        {u"token"_s, u"create"_s, u"--db"_s, m_db, u"--audience"_s, u"tests"_s, u"--keys"_s, u"LOWERCASE"_s});
    QCOMPARE(minted.exitCode, 0);
    const QByteArray known =
        QJsonDocument::fromJson(minted.out).object().value(u"value"_s).toString().toUtf8();
    QVERIFY(!known.isEmpty());
    const qsizetype before = refusalEvents().size();

    QString error;
    QVERIFY2(m_server.start(m_db, kOwnerKey, &error), qPrintable(error));
    QCOMPARE(dispatchMany("cdt_bogus-token-value", 2000, 16, 401), 2000);
    // A stored token's refusal names the token, so each is still an event.
    QCOMPARE(dispatchMany(known, 3, 1, 403), 3);
    m_server.stop();
    QTRY_VERIFY_WITH_TIMEOUT(!m_server.isRunning(), 20000);

    const QJsonArray refusals = refusalEvents();
    qsizetype unknownEvents = 0;
    qint64 counted = 0;
    qsizetype knownEvents = 0;
    for (qsizetype i = 0; i < refusals.size() - before; ++i) {
        const QJsonObject event = refusals.at(i).toObject();
        const QJsonObject detail = event.value(u"detail"_s).toObject();
        if (event.value(u"actor"_s).toString() == u"token:unknown"_s) {
            ++unknownEvents;
            counted += detail.value(u"count"_s).toInteger();
        } else {
            ++knownEvents;
        }
    }
    // One at the first refusal, at most one a minute while the test runs, one at exit.
    QVERIFY2(unknownEvents >= 1 && unknownEvents <= 4, qPrintable(QString::number(unknownEvents)));
    QCOMPARE(counted, 2000);
    QCOMPARE(knownEvents, 3);
    QCOMPARE(ctl({u"log"_s, u"--verify"_s, u"--db"_s, m_db}).exitCode, 0);
}

std::pair<int, QByteArray> TestServedLedger::get(const QString &path)
{
    QNetworkReply *reply = m_network.get(QNetworkRequest(m_server.baseUrl().resolved(QUrl(path))));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(30000);
    const std::pair<int, QByteArray> answer{
        reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
    reply->deleteLater();
    return answer;
}

QString TestServedLedger::ownerInvoke(const QString &body)
{
    QNetworkRequest request(m_server.baseUrl().resolved(QUrl(u"/api/dispatch"_s)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("x-terminal-key", kOwnerKey);
    QNetworkReply *reply =
        m_network.post(request, QJsonDocument(QJsonObject{{u"key"_s, u"UPPERCASE"_s}, {u"body"_s, body}})
                                    .toJson(QJsonDocument::Compact));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(30000);
    reply->deleteLater();
    return QJsonDocument::fromJson(reply->readAll())
        .object()
        .value(u"proof"_s)
        .toObject()
        .value(u"invocation_id"_s)
        .toString();
}

void TestServedLedger::confirmRefusesARowHoldingAnotherReceipt()
{
    QString error;
    const bool started =
        m_server.port() != 0 ? m_server.restart(&error) : m_server.start(m_db, kOwnerKey, &error);
    QVERIFY2(started, qPrintable(error));
    const QString asked = ownerInvoke(u"a"_s);
    const QString other = ownerInvoke(u"b"_s);
    QVERIFY(asked.startsWith(u"inv_"_s) && other.startsWith(u"inv_"_s));
    QCOMPARE(QJsonDocument::fromJson(get(u"/api/dispatch?confirm="_s + asked).second)
                 .object()
                 .value(u"confirmed"_s)
                 .toBool(),
             true);
    m_server.stop();
    QTRY_VERIFY_WITH_TIMEOUT(!m_server.isRunning(), 20000);
    const QString failure = RawSql::exec(
        m_db,
        {u"DROP TRIGGER receipts_refuse_update"_s,
         u"UPDATE receipts SET receipt_json = (SELECT receipt_json FROM receipts WHERE invocation_id = '%1') "
         "WHERE invocation_id = '%2'"_s.arg(other, asked)});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(m_server.restart(&error), qPrintable(error));

    const auto [status, body] = get(u"/api/dispatch?confirm="_s + asked);
    QCOMPARE(status, 200);
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    QCOMPARE(answer.value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(answer.value(u"reason"_s).toString(), u"receipt_mismatch"_s);
    QCOMPARE(answer.value(u"invocation_id"_s).toString(), asked);
    QVERIFY(!answer.contains(u"receipt"_s));
    const auto [pageStatus, page] = get(u"/receipt/"_s + asked);
    QVERIFY(pageStatus == 404 && page.contains("Not confirmed"));
    m_server.stop();
    QTRY_VERIFY_WITH_TIMEOUT(!m_server.isRunning(), 20000);
}

QTEST_GUILESS_MAIN(TestServedLedger)
#include "tst_servedledger.moc"
