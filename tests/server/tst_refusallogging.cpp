#include "processrun.h"
#include "serveprocess.h"

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

// Item 11 of issue 13: anyone can send a made-up token, so those refusals must not grow
// the append-only event log one event each; refusals of real tokens are still logged.
class TestRefusalLogging : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void bogusTokensAddABoundedNumberOfEvents();

private:
    ProcessRun::Result ctl(const QStringList &arguments) const
    {
        return ProcessRun::run(ServeProcess::program(), arguments);
    }
    QJsonArray refusalEvents() const;
    // Sends `count` dispatches with `token`, `parallel` at a time; returns how many got `status`.
    int dispatchMany(const QByteArray &token, int count, int parallel, int status);

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_server;
    QNetworkAccessManager m_network;
};

void TestRefusalLogging::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, m_db}).exitCode, 0);
}

QJsonArray TestRefusalLogging::refusalEvents() const
{
    const ProcessRun::Result log = ctl({u"log"_s, u"--db"_s, m_db});
    QJsonArray refusals;
    for (const QJsonValue &event : QJsonDocument::fromJson(log.out).object().value(u"events"_s).toArray()) {
        if (event.toObject().value(u"kind"_s).toString() == u"CAPABILITY_REFUSED"_s)
            refusals.append(event);
    }
    return refusals;
}

int TestRefusalLogging::dispatchMany(const QByteArray &token, int count, int parallel, int status)
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
        QNetworkReply *reply = m_network.post(request, QByteArrayLiteral(R"({"key":"UPPERCASE","body":"hi"})"));
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

void TestRefusalLogging::bogusTokensAddABoundedNumberOfEvents()
{
    const ProcessRun::Result minted = ctl(
        {u"token"_s, u"create"_s, u"--db"_s, m_db, u"--audience"_s, u"tests"_s, u"--keys"_s, u"LOWERCASE"_s});
    QCOMPARE(minted.exitCode, 0);
    const QByteArray known = QJsonDocument::fromJson(minted.out).object().value(u"value"_s).toString().toUtf8();
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

QTEST_GUILESS_MAIN(TestRefusalLogging)
#include "tst_refusallogging.moc"
