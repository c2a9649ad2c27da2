#include "processrun.h"
#include "rawsql.h"
#include "serveprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-owner-key-7d41e0c9b2a65f38");

struct RawAnswer
{
    int status = 0;
    QByteArray head;
    QJsonObject json;
};

QByteArray rowJson(const QString &key, bool sensitive)
{
    const QString content = QStringLiteral("# WHAT: Echo the body for %1.\n# WHEN_TO_USE: a test needs it.\n"
                                           "# ARGS: $1=text\n# EX: [%1]hello[/%1]\n# OUTPUT: the text")
                                .arg(key);
    return QJsonDocument(QJsonObject{{QStringLiteral("key"), key},
                                     {QStringLiteral("type"), QStringLiteral("fn")},
                                     {QStringLiteral("target"), QStringLiteral("echo")},
                                     {QStringLiteral("content"), content},
                                     {QStringLiteral("category"), QStringLiteral("tools")},
                                     {QStringLiteral("sensitive"), sensitive ? 1 : 0},
                                     {QStringLiteral("examples"), QStringLiteral("[\"hello\"]")}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

// The REST API's inputs from outside: every number in a query is range-checked and a bad
// one is a 400 naming it; PUT creates or replaces without widening a token's reach; no
// stored text becomes a header line.
class TestRestInputs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void queryNumbersAreRangeChecked_data();
    void queryNumbersAreRangeChecked();
    void putCreatesAnAbsentRow();
    void putKeepsSensitiveAndRunner();
    void storedTextNeverBecomesAHeaderLine();

private:
    RawAnswer exchange(const QByteArray &method, const QByteArray &target, const QByteArray &body = {},
                       const QByteArray &extraHeaders = {});

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_served;
};

void TestRestInputs::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("inputs.db"));
    QCOMPARE(ProcessRun::run(ServeProcess::program(), {QStringLiteral("init"), QStringLiteral("--db"), m_db})
                 .exitCode,
             0);
    QString error;
    QVERIFY2(m_served.start(m_db, kOwnerKey, &error), qPrintable(error));
    QCOMPARE(exchange("POST", "/api/directory", rowJson(QStringLiteral("ZZ_PAGED"), false)).status, 201);
}

RawAnswer TestRestInputs::exchange(const QByteArray &method, const QByteArray &target, const QByteArray &body,
                                   const QByteArray &extraHeaders)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_served.port());
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(method + ' ' + target
                 + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx-terminal-key: " + kOwnerKey
                 + "\r\n" + extraHeaders + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                 + body);
    QByteArray received;
    const auto complete = [&received] {
        const qsizetype end = received.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QByteArray head = received.left(end).toLower();
        const qsizetype length = head.indexOf("\r\ncontent-length: ");
        const qsizetype bodySize =
            length < 0 ? 0 : head.mid(length + 18, head.indexOf('\r', length + 2) - length - 18).toLongLong();
        return received.size() >= end + 4 + bodySize;
    };
    while (!complete() && socket.waitForReadyRead(10000))
        received += socket.readAll();
    RawAnswer answer;
    const qsizetype end = received.indexOf("\r\n\r\n");
    answer.head = received.left(end);
    answer.status = received.mid(9, 3).toInt();
    answer.json = QJsonDocument::fromJson(received.mid(end + 4)).object();
    return answer;
}

void TestRestInputs::queryNumbersAreRangeChecked_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("named"); // the parameter the 400 names

    QTest::addRow("summary page") << QByteArray("limit=1&offset=0&fields=summary") << 200 << QString();
    QTest::addRow("offset+limit overflows")
        << QByteArray("limit=1&offset=9223372036854775807&fields=summary") << 400 << QStringLiteral("offset");
    QTest::addRow("limit+offset overflows")
        << QByteArray("limit=9223372036854775807&offset=1&fields=summary") << 400 << QStringLiteral("limit");
    QTest::addRow("huge offset, full rows")
        << QByteArray("limit=1&offset=9223372036854775807") << 400 << QStringLiteral("offset");
    QTest::addRow("past int64") << QByteArray("offset=99999999999999999999&fields=summary") << 400
                                << QStringLiteral("offset");
    QTest::addRow("negative limit") << QByteArray("limit=-1&fields=summary") << 400
                                    << QStringLiteral("limit");
    QTest::addRow("signed") << QByteArray("limit=+5") << 400 << QStringLiteral("limit");
    QTest::addRow("exponent") << QByteArray("limit=1e3") << 400 << QStringLiteral("limit");
    QTest::addRow("spaced") << QByteArray("offset=%201") << 400 << QStringLiteral("offset");
    QTest::addRow("empty") << QByteArray("limit=") << 400 << QStringLiteral("limit");
    QTest::addRow("twice") << QByteArray("limit=1&limit=2") << 400 << QStringLiteral("limit");
    QTest::addRow("limit over the page cap") << QByteArray("limit=1000001") << 400 << QStringLiteral("limit");
    QTest::addRow("offset over its cap")
        << QByteArray("offset=1000000001") << 400 << QStringLiteral("offset");
    QTest::addRow("at the caps") << QByteArray("limit=1000000&offset=1000000000&fields=summary") << 200
                                 << QString();
    QTest::addRow("after far too long")
        << QByteArray("after=" + QByteArray(5000, 'A')) << 400 << QStringLiteral("after");
    QTest::addRow("since_seq negative") << QByteArray("since_seq=-1") << 400 << QStringLiteral("since_seq");
    QTest::addRow("since_seq past int64")
        << QByteArray("since_seq=9223372036854775808") << 400 << QStringLiteral("since_seq");
    QTest::addRow("since_seq twice") << QByteArray("since_seq=1&since_seq=2") << 400
                                     << QStringLiteral("since_seq");
    QTest::addRow("since_seq") << QByteArray("since_seq=0") << 200 << QString();
}

void TestRestInputs::queryNumbersAreRangeChecked()
{
    QFETCH(QByteArray, query);
    QFETCH(int, status);
    QFETCH(QString, named);
    const RawAnswer answer = exchange("GET", "/api/directory?" + query);
    QCOMPARE(answer.status, status);
    if (!named.isEmpty()) {
        const QString error = answer.json.value(QStringLiteral("error")).toString();
        QVERIFY2(error.startsWith(named + u' '), qPrintable(error));
    }
    QVERIFY(m_served.isRunning());
}

void TestRestInputs::putCreatesAnAbsentRow()
{
    const RawAnswer refused =
        exchange("PUT", "/api/directory/ZZ_PUT_NEW", rowJson(QStringLiteral("ZZ_PUT_NEW"), false),
                 "If-Match: \"2024-01-01T00:00:00Z\"\r\n");
    QCOMPARE(refused.status, 412);
    const RawAnswer untyped = exchange("PUT", "/api/directory/ZZ_PUT_NEW", R"({"target":"echo"})");
    QCOMPARE(untyped.status, 400);
    const RawAnswer created =
        exchange("PUT", "/api/directory/ZZ_PUT_NEW", rowJson(QStringLiteral("ZZ_PUT_NEW"), false));
    QCOMPARE(created.status, 201);
    QCOMPARE(created.json.value(QStringLiteral("key")).toString(), QStringLiteral("ZZ_PUT_NEW"));
    QCOMPARE(exchange("GET", "/api/directory/ZZ_PUT_NEW").status, 200);
    // Gated exactly as POST: a row without its doc lines is refused by the hygiene gate.
    const RawAnswer undocumented =
        exchange("PUT", "/api/directory/ZZ_PUT_BARE", R"({"type":"fn","target":"echo","content":""})");
    QCOMPARE(undocumented.status,
             exchange("POST", "/api/directory",
                      R"({"key":"ZZ_PUT_BARE","type":"fn","target":"echo","content":""})")
                 .status);
    QCOMPARE(exchange("GET", "/api/directory/ZZ_PUT_BARE").status, 404);
}

void TestRestInputs::putKeepsSensitiveAndRunner()
{
    QCOMPARE(exchange("POST", "/api/directory", rowJson(QStringLiteral("ZZ_PUT_SENSITIVE"), true)).status,
             201);
    const RawAnswer replaced = exchange("PUT", "/api/directory/ZZ_PUT_SENSITIVE",
                                        rowJson(QStringLiteral("ZZ_PUT_SENSITIVE"), false));
    QCOMPARE(replaced.status, 200);
    QCOMPARE(replaced.json.value(QStringLiteral("kept")).toVariant().toStringList(),
             (QStringList{QStringLiteral("runner"), QStringLiteral("sensitive")}));
    const RawAnswer stored = exchange("GET", "/api/directory/ZZ_PUT_SENSITIVE");
    QCOMPARE(stored.json.value(QStringLiteral("sensitive")).toInt(), 1);
}

void TestRestInputs::storedTextNeverBecomesAHeaderLine()
{
    QCOMPARE(exchange("POST", "/api/directory", rowJson(QStringLiteral("ZZ_STAMPED"), false)).status, 201);
    QCOMPARE(RawSql::exec(m_db, {QStringLiteral("UPDATE directory SET updated_at = "
                                                "'2024-01-01T00:00:00Z' || char(13, 10) || 'Set-Cookie: a=b' "
                                                "WHERE key = 'ZZ_STAMPED'")}),
             QString());
    const RawAnswer answer = exchange("GET", "/api/directory/ZZ_STAMPED");
    QCOMPARE(answer.status, 200);
    QVERIFY2(!answer.head.contains("Set-Cookie"), answer.head.constData());
    QVERIFY2(!answer.head.contains("ETag"), answer.head.constData());
}

QTEST_GUILESS_MAIN(TestRestInputs)
#include "tst_restinputs.moc"
