#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-owner-key-5b0c9e1f2a7d4c3b");

using Headers = QList<std::pair<QByteArray, QByteArray>>;

struct HttpAnswer
{
    int status = 0;
    QByteArray body;
    QJsonObject json;
};

} // namespace

// What a real `capdeskctl serve` tells about its own faults (FaultScreen, FaultNotice): the
// owner the reason, anyone else an id that the server's log explains.
class TestFaultDisclosure : public QObject
{
    Q_OBJECT

private slots:
    void aFaultIsToldOnlyToTheOwner();

private:
    HttpAnswer callAt(const QUrl &url, const QByteArray &verb, const QByteArray &body,
                      const Headers &headers);
    static ProcessRun::Result ctl(const QStringList &arguments)
    {
        return ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments);
    }

    QTemporaryDir m_dir;
    QNetworkAccessManager m_network;
};

HttpAnswer TestFaultDisclosure::callAt(const QUrl &url, const QByteArray &verb, const QByteArray &body,
                                       const Headers &headers)
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = m_network.sendCustomRequest(request, verb, body);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    HttpAnswer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.json = QJsonDocument::fromJson(answer.body).object();
    reply->deleteLater();
    return answer;
}

// A server that cannot sign (its directory's key is not on this machine) answers 500. The
// reason names the server's files, so a token holder and a plain MCP client get a fault id
// that the log tells the owner about; the owner is told the reason itself.
void TestFaultDisclosure::aFaultIsToldOnlyToTheOwner()
{
    const QString db = m_dir.filePath(QStringLiteral("faulty.db"));
    const QString keyFile = m_dir.filePath(QStringLiteral("elsewhere.pem"));
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db}).exitCode,
             0);
    QCOMPARE(ctl({QStringLiteral("invoke"), QStringLiteral("NOW"), QStringLiteral("--db"), db,
                  QStringLiteral("--signing-key"), keyFile})
                 .exitCode,
             0);
    const QByteArray token =
        QJsonDocument::fromJson(
            ctl({QStringLiteral("token"), QStringLiteral("create"), QStringLiteral("--db"), db,
                 QStringLiteral("--audience"), QStringLiteral("tests"), QStringLiteral("--keys"),
                 QStringLiteral("NOW")})
                .out)
            .object()
            .value(QStringLiteral("value"))
            .toString()
            .toUtf8();
    QVERIFY(!token.isEmpty());
    ServeProcess served;
    QString error;
    QVERIFY2(served.start(db, kOwnerKey, &error), qPrintable(error));
    const QUrl dispatchUrl = served.baseUrl().resolved(QUrl(QStringLiteral("/api/dispatch")));
    const QByteArray call = R"({"key":"NOW"})";
    const Headers holder{{QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + token},
                         {QByteArrayLiteral("x-capability-audience"), QByteArrayLiteral("tests")}};
    const QByteArray folder = m_dir.path().toUtf8();

    const HttpAnswer told = callAt(dispatchUrl, "POST", call, holder);
    QCOMPARE(told.status, 500);
    QVERIFY2(!told.body.contains(folder) && !told.body.contains("signing-key"), told.body.constData());
    const QString refusal = told.json.value(QStringLiteral("error")).toString();
    static const QRegularExpression faultId(QStringLiteral("\\(fault ([0-9a-f]{8})\\)"));
    const QRegularExpressionMatch fault = faultId.match(refusal);
    QVERIFY2(fault.hasMatch(), told.body.constData());
    QCOMPARE(told.json.value(QStringLiteral("ran")), QJsonValue(false));

    const HttpAnswer mcp = callAt(
        served.baseUrl().resolved(QUrl(QStringLiteral("/mcp"))), "POST",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"NOW","arguments":{"body":""}}})",
        holder
            + Headers{
                {QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json, text/event-stream")}});
    QCOMPARE(mcp.status, 200);
    QVERIFY2(!mcp.body.contains(folder) && mcp.body.contains("(fault "), mcp.body.constData());

    const HttpAnswer ownerTold =
        callAt(dispatchUrl, "POST", call, {{QByteArrayLiteral("x-terminal-key"), kOwnerKey}});
    QCOMPARE(ownerTold.status, 500);
    QVERIFY2(ownerTold.body.contains("cannot sign receipts") && ownerTold.body.contains(folder),
             ownerTold.body.constData());

    const QByteArray log = served.standardError();
    const QByteArray logged = "capdesk: fault " + fault.captured(1).toUtf8() + ": cannot sign receipts";
    QVERIFY2(log.contains(logged), log.constData());
    QCOMPARE(log.count("capdesk: fault "), 2); // the REST call's and the MCP call's

    // A receipt the store cannot read: the public ?confirm= says so with a fault id.
    QCOMPARE(RawSql::exec(db, {QStringLiteral("ALTER TABLE receipts RENAME TO gone")}), QString());
    const QUrl confirmUrl =
        served.baseUrl().resolved(QUrl(QStringLiteral("/api/dispatch?confirm=inv_0000000000")));
    const HttpAnswer unreadable = callAt(confirmUrl, "GET", {}, {});
    QCOMPARE(unreadable.json.value(QStringLiteral("reason")).toString(), QStringLiteral("unreadable"));
    QVERIFY2(unreadable.json.value(QStringLiteral("error")).toString().contains(QStringLiteral("(fault "))
                 && !unreadable.body.contains("receipts"),
             unreadable.body.constData());
    const HttpAnswer ownerReads =
        callAt(confirmUrl, "GET", {}, {{QByteArrayLiteral("x-terminal-key"), kOwnerKey}});
    QVERIFY2(ownerReads.json.value(QStringLiteral("error")).toString().contains(QStringLiteral("receipts")),
             ownerReads.body.constData());
}

QTEST_MAIN(TestFaultDisclosure)
#include "tst_faultdisclosure.moc"
