#include "dispatch/core/faultnotice.h"
#include "server/faultscreen.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

class TestFaultScreen : public QObject
{
    Q_OBJECT

private slots:
    void aFaultsTextStaysWithTheServer_data();
    void aFaultsTextStaysWithTheServer();
};

void TestFaultScreen::aFaultsTextStaysWithTheServer_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("hidden");
    const QByteArray storeError = R"({"error":"unable to open database file /srv/d.db"})";
    QTest::addRow("a store error's 500") << 500 << storeError << true;
    QTest::addRow("a refused call's 500")
        << 500 << QByteArray(R"({"ok":false,"ran":false,"error":"cannot sign receipts: /srv/k.pem"})")
        << true;
    QTest::addRow("a 500 that is not JSON") << 500 << QByteArray("/srv/d.db is locked") << true;
    QTest::addRow("a 404 says what the caller asked for")
        << 404 << QByteArray(R"({"error":"unknown key NOPE"})") << false;
    QTest::addRow("a 503 is the server's own text")
        << 503 << QByteArray(R"({"error":"the server is shutting down"})") << false;
    QTest::addRow("a 200") << 200 << QByteArray(R"({"ok":true})") << false;
}

void TestFaultScreen::aFaultsTextStaysWithTheServer()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(bool, hidden);
    ServerReply reply;
    reply.status = status;
    reply.body = body;
    reply.headers.append({QByteArrayLiteral("Allow"), QByteArrayLiteral("GET")});
    const ServerReply screened = FaultScreen::screened(reply);
    QCOMPARE(screened.status, status);
    QCOMPARE(screened.headers, reply.headers);
    if (!hidden) {
        QCOMPARE(screened.body, body);
        return;
    }
    QVERIFY2(!screened.body.contains("/srv/"), screened.body.constData());
    const QJsonObject object = QJsonDocument::fromJson(screened.body).object();
    QVERIFY(FaultNotice::isNotice(object.value(u"error"_s).toString()));
    // The other members, which say what became of the call, stay.
    const QJsonObject before = QJsonDocument::fromJson(body).object();
    for (auto it = before.constBegin(); it != before.constEnd(); ++it) {
        if (it.key() != u"error"_s)
            QCOMPARE(object.value(it.key()), it.value());
    }
    // Screened twice (a reply passed on), it keeps its id.
    QCOMPARE(FaultScreen::screened(screened).body, screened.body);
}

QTEST_GUILESS_MAIN(TestFaultScreen)
#include "tst_faultscreen.moc"
