#include "tests/app/ctltestsupport.h"

#include <QHttpServer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): `invoke` on a local file, its runs, shapes and real HTTP calls.
class TestCapdeskctlInvoke : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void invokeRunsAndReportsLikeTheServer();
    void invokeShapeSendsNothingAndNamesMissingSecrets();
    void invokeHttpAgainstALocalUpstream();

private:
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCapdeskctlInvoke::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCapdeskctlInvoke::invokeRunsAndReportsLikeTheServer()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("BASE64_ENCODE"),
                         QStringLiteral("hello|world"), QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject response = run.json();
    QCOMPARE(response.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("ran")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("result")).toString(), QStringLiteral("aGVsbG98d29ybGQ="));
    QVERIFY(QRegularExpression(QStringLiteral("^t_[0-9a-z]{8}$"))
                .match(response.value(QStringLiteral("trace")).toString())
                .hasMatch());
    const QString id =
        response.value(QStringLiteral("proof")).toObject().value(QStringLiteral("invocation_id")).toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^inv_[0-9a-z]{10}$")).match(id).hasMatch(), qPrintable(id));

    const Run failed = ctl({QStringLiteral("invoke"), QStringLiteral("FAIL_WITH"), QStringLiteral("boom"),
                            QStringLiteral("--db"), db()});
    QCOMPARE(failed.exitCode, 1);
    QCOMPARE(failed.json().value(QStringLiteral("result")).toString(), QStringLiteral("ERR: boom"));
    QCOMPARE(failed.json().value(QStringLiteral("ok")).toBool(true), false);

    const Run unknown =
        ctl({QStringLiteral("invoke"), QStringLiteral("NO_SUCH_ROW"), QStringLiteral("--db"), db()});
    QCOMPARE(unknown.exitCode, 3);
    QCOMPARE(unknown.json(),
             (QJsonObject{{QStringLiteral("ok"), false},
                          {QStringLiteral("ran"), false},
                          {QStringLiteral("error"), QStringLiteral("unknown key NO_SUCH_ROW")}}));
    QVERIFY2(
        unknown.err.contains("capdeskctl: nothing ran: this directory has no row with the key NO_SUCH_ROW"),
        unknown.err.constData());

    const Run untrusted =
        ctl({QStringLiteral("invoke"), QStringLiteral("BASE64_ENCODE"), QStringLiteral("--token"),
             QStringLiteral("cdt_nosuch"), QStringLiteral("--audience"), QStringLiteral("ci"),
             QStringLiteral("--db"), db()});
    QCOMPARE(untrusted.exitCode, 4);
    QCOMPARE(untrusted.json().value(QStringLiteral("ran")), QJsonValue(false));
    QVERIFY2(untrusted.err.contains("capdeskctl: refused, nothing ran: unknown_token"),
             untrusted.err.constData());
}

void TestCapdeskctlInvoke::invokeShapeSendsNothingAndNamesMissingSecrets()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("GROK_MODELS"), QStringLiteral("--shape"),
                         QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject response = run.json();
    QCOMPARE(response.value(QStringLiteral("shape")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("runner")).toString(), QStringLiteral("http"));
    const QJsonObject request = response.value(QStringLiteral("request")).toObject();
    QCOMPARE(request.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
    QCOMPARE(request.value(QStringLiteral("url")).toString(), QStringLiteral("https://api.x.ai/v1/models"));
    QCOMPARE(request.value(QStringLiteral("headers")).toObject(), QJsonObject());
    QCOMPARE(response.value(QStringLiteral("notes")).toArray().first().toString(),
             QStringLiteral("GROK_API_KEY is not set: no credential will be sent"));
}

void TestCapdeskctlInvoke::invokeHttpAgainstALocalUpstream()
{
    QHttpServer upstream;
    QString seenQuery;
    upstream.route(QStringLiteral("/v1/forecast"), [&seenQuery](const QHttpServerRequest &request) {
        seenQuery = request.url().query(QUrl::FullyDecoded);
        return QHttpServerResponse(
            QJsonObject{{QStringLiteral("current"), QJsonObject{{QStringLiteral("temperature_2m"), 15.7}}}});
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);

    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const QByteArray row = QStringLiteral(R"({"key":"ZZ_TEST_TEMPERATURE","type":"http",
        "target":"GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m",
        "content":"# WHAT: Current temperature\n# WHEN_TO_USE: tests\n# ARGS: $1=lat | $2=lon\n# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n# OUTPUT: JSON"})")
                               .arg(port)
                               .toUtf8();
    QCOMPARE(ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row).exitCode, 0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("ZZ_TEST_TEMPERATURE"),
                         QStringLiteral("37.77|-122.42"), QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(seenQuery, QStringLiteral("latitude=37.77&longitude=-122.42&current=temperature_2m"));
    QCOMPARE(run.json().value(QStringLiteral("result")).toString(),
             QStringLiteral(R"(HTTP 200:{"current":{"temperature_2m":15.7}})"));
}

QTEST_GUILESS_MAIN(TestCapdeskctlInvoke)
#include "tst_capdeskctl_invoke.moc"
