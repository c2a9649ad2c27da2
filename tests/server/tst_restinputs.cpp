#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
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

// A compliant row object without `field`, as compact JSON text whose last member is then
// `field` with the raw JSON `value` (so 1e300, -0 and 99999999999999999999 arrive as written).
QByteArray rowWith(const QString &key, const QByteArray &field, const QByteArray &value)
{
    QJsonObject row = QJsonDocument::fromJson(rowJson(key, false)).object();
    row.remove(QString::fromLatin1(field));
    QByteArray text = QJsonDocument(row).toJson(QJsonDocument::Compact);
    text.chop(1);
    return text + ",\"" + field + "\":" + value + '}';
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
    void rowFieldsAreStrict_data();
    void rowFieldsAreStrict();
    void dispatchFieldsAreStrict_data();
    void dispatchFieldsAreStrict();
    void refusalsQuoteTheBudgetInForce_data();
    void refusalsQuoteTheBudgetInForce();

private:
    RawAnswer exchange(const QByteArray &method, const QByteArray &target, const QByteArray &body = {},
                       const QByteArray &extraHeaders = {});

    QTemporaryDir m_dir;
    QString m_db;
    QString m_cliDb; // the CLI's own file, holding ZZ_STRICT as the server's does
    int m_postedRows = 0;
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
    QCOMPARE(exchange("POST", "/api/directory", rowJson(QStringLiteral("ZZ_STRICT"), false)).status, 201);
    m_cliDb = m_dir.filePath(QStringLiteral("cli.db"));
    QCOMPARE(
        ProcessRun::run(ServeProcess::program(), {QStringLiteral("init"), QStringLiteral("--db"), m_cliDb})
            .exitCode,
        0);
    QCOMPARE(ProcessRun::run(ServeProcess::program(),
                             {QStringLiteral("put"), QStringLiteral("--db"), m_cliDb},
                             rowJson(QStringLiteral("ZZ_STRICT"), false))
                 .exitCode,
             0);
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

// Issue 13, item 1: every member of a row body (POST, PUT, PATCH) is the right JSON type
// and, for a number, whole and in its range (0 or 1 for the flags, ±(2^53 − 1) for seq and
// planner_rank); anything else is a 400 naming the field, and nothing is written. The CLI's
// put and patch read the same way and refuse in the same words.
void TestRestInputs::rowFieldsAreStrict_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("value"); // raw JSON text
    QTest::addColumn<QJsonValue>("stored"); // what GET then reads; Undefined: refused

    const QByteArray flags[] = {"enabled", "planner_visible", "sensitive"};
    const QByteArray numbers[] = {"seq", "planner_rank"};
    const QByteArray alwaysBad[] = {"\"x\"", "\"1\"", "\"0\"", "true",   "false",
                                    "1.5",   "-0.5",  "1e300", "-1e300", "99999999999999999999",
                                    "[1]",   "{}",    "1e-300"};
    const QJsonValue refused(QJsonValue::Undefined);
    for (const QByteArray &method : {QByteArray("POST"), QByteArray("PUT"), QByteArray("PATCH")}) {
        const auto add = [&](const QByteArray &field, const QByteArray &value, const QJsonValue &stored) {
            // sensitive is not PATCHable at all; PUT keeps the stored one.
            if (field == "sensitive" && (method == "PATCH" || (method == "PUT" && !stored.isUndefined())))
                return;
            QTest::addRow("%s %s %s", method.constData(), field.constData(), value.constData())
                << method << field << value << stored;
        };
        for (const QByteArray &field : flags) {
            for (const QByteArray &value : alwaysBad)
                add(field, value, refused);
            for (const char *value : {"null", "2", "-1", "9007199254740992"})
                add(field, value, refused);
            add(field, "0", QJsonValue(0));
            add(field, "1", QJsonValue(1));
            add(field, "-0", QJsonValue(0));
            add(field, "1.0", QJsonValue(1));
        }
        for (const QByteArray &field : numbers) {
            for (const QByteArray &value : alwaysBad)
                add(field, value, refused);
            for (const char *value : {"9007199254740992", "-9007199254740992", "9223372036854775807"})
                add(field, value, refused);
            add(field, "9007199254740991", QJsonValue(qint64(9007199254740991)));
            add(field, "-9007199254740991", QJsonValue(qint64(-9007199254740991)));
            add(field, "1e3", QJsonValue(1000));
            add(field, "-0", QJsonValue(0));
        }
        add("planner_rank", "null", refused);
        add("seq", "null", QJsonValue(QJsonValue::Null));
        for (const char *field : {"target", "category", "allowed_categories", "examples", "includes"}) {
            for (const char *value : {"5", "true", "[\"x\"]", "{}"})
                add(field, value, refused);
        }
        add("category", "null", QJsonValue(QJsonValue::Null));
        add("category", "\"other\"", QJsonValue(QStringLiteral("other")));
        if (method != "PATCH") {
            add("key", "5", refused);
            add("key", "null", refused);
            add("type", "true", refused);
            add("type", "null", refused);
            add("runner", "7", refused);
            add("updated_at", "1", refused);
            add("created_at", "false", refused);
            add("colour", "\"red\"", refused);
        }
    }
}

void TestRestInputs::rowFieldsAreStrict()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, field);
    QFETCH(QByteArray, value);
    QFETCH(QJsonValue, stored);

    const QString key =
        method == "POST" ? QStringLiteral("ZZ_STRICT_%1").arg(++m_postedRows) : QStringLiteral("ZZ_STRICT");
    const QByteArray path =
        method == "POST" ? QByteArray("/api/directory") : "/api/directory/" + key.toUtf8();
    const QByteArray body =
        method == "PATCH" ? "{\"" + field + "\":" + value + '}' : rowWith(key, field, value);
    const QJsonObject before = exchange("GET", "/api/directory/ZZ_STRICT").json;
    const RawAnswer answer = exchange(method, path, body);

    if (!stored.isUndefined()) {
        QVERIFY2(answer.status == (method == "POST" ? 201 : 200), answer.head.constData());
        const QJsonObject row = exchange("GET", "/api/directory/" + key.toUtf8()).json;
        QCOMPARE(row.value(QString::fromLatin1(field)).toVariant(), stored.toVariant());
        return;
    }
    QCOMPARE(answer.status, 400);
    const QString error = answer.json.value(QStringLiteral("error")).toString();
    QCOMPARE(answer.json.value(QStringLiteral("field")).toString(), QString::fromLatin1(field));
    QVERIFY2(error.contains(u'\'' + QString::fromLatin1(field) + u'\''), qPrintable(error));
    if (field != "colour")
        QVERIFY2(error.contains(QStringLiteral(" must be ")), qPrintable(error));
    // Nothing written: no row created, and the row replaced or patched is as it was.
    if (method == "POST")
        QCOMPARE(exchange("GET", "/api/directory/" + key.toUtf8()).status, 404);
    QCOMPARE(exchange("GET", "/api/directory/ZZ_STRICT").json, before);

    // The CLI refuses in the same words, on a file and through the server.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(kOwnerKey));
    for (const QStringList &where :
         {QStringList{QStringLiteral("--db"), m_cliDb},
          QStringList{QStringLiteral("--server"), m_served.baseUrl().toString()}}) {
        const QStringList cli =
            (method == "PATCH" ? QStringList{QStringLiteral("patch"), QStringLiteral("ZZ_STRICT")}
                               : QStringList{QStringLiteral("put")})
            + where;
        const ProcessRun::Result run = ProcessRun::run(ServeProcess::program(), cli, body, environment);
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(error.toUtf8()), run.err.constData());
    }
    QCOMPARE(exchange("GET", "/api/directory/ZZ_STRICT").json, before);
}

// SPEC §10's dispatch body: `key` a non-empty string, `body` a string, `shape` true or
// false (never "yes", 7 or null meaning something), `audience` a string, and no other
// member (a misspelt "shpae" would otherwise run a real call).
void TestRestInputs::dispatchFieldsAreStrict_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field"); // empty: accepted

    for (const char *value : {"\"yes\"", "\"true\"", "7", "1", "0", "null", "[]", "{}"})
        QTest::addRow("shape %s", value)
            << QByteArray(R"({"key":"ZZ_PAGED","body":"x","shape":)") + value + '}'
            << QStringLiteral("shape");
    for (const char *value : {"5", "null", "true", "[\"x\"]"})
        QTest::addRow("body %s", value)
            << QByteArray(R"({"key":"ZZ_PAGED","body":)") + value + '}' << QStringLiteral("body");
    for (const char *value : {"5", "null", "\"\"", "[\"ZZ_PAGED\"]"})
        QTest::addRow("key %s", value)
            << QByteArray(R"({"body":"x","key":)") + value + '}' << QStringLiteral("key");
    QTest::addRow("no key") << QByteArray(R"({"body":"x"})") << QStringLiteral("key");
    QTest::addRow("audience 5") << QByteArray(R"({"key":"ZZ_PAGED","audience":5})")
                                << QStringLiteral("audience");
    QTest::addRow("misspelt shape") << QByteArray(R"({"key":"ZZ_PAGED","body":"x","shpae":true})")
                                    << QStringLiteral("shpae");
    QTest::addRow("shape true") << QByteArray(R"({"key":"ZZ_PAGED","body":"x","shape":true})") << QString();
    QTest::addRow("shape false") << QByteArray(R"({"key":"ZZ_PAGED","body":"x","shape":false})") << QString();
    QTest::addRow("key only") << QByteArray(R"({"key":"ZZ_PAGED"})") << QString();
    QTest::addRow("audience") << QByteArray(R"({"key":"ZZ_PAGED","body":"x","audience":"tests"})")
                              << QString();
}

void TestRestInputs::dispatchFieldsAreStrict()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const RawAnswer answer = exchange("POST", "/api/dispatch", body);
    if (field.isEmpty()) {
        QCOMPARE(answer.status, 200);
        return;
    }
    QCOMPARE(answer.status, 400);
    QCOMPARE(answer.json.value(QStringLiteral("field")).toString(), field);
    const QString error = answer.json.value(QStringLiteral("error")).toString();
    QVERIFY2(error.contains(field), qPrintable(error));
    QVERIFY(!answer.json.contains(QStringLiteral("proof")));
}

// Issue 13, item 4: a Capdesk-Call-Budget header lowers the tree's budget, and a refusal
// quotes the budget so lowered, not the server's defaults (256 calls, 64 MiB, 120000 ms).
void TestRestInputs::refusalsQuoteTheBudgetInForce_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("quoted");

    QTest::addRow("calls") << QByteArray(
        "calls=0") << QStringLiteral("call_budget: the call tree may make 0 calls in all, and 0 are left");
    QTest::addRow("bytes") << QByteArray("calls=10; bytes=3")
                           << QStringLiteral(
                                  "call_budget: the call tree's outputs passed the 3 bytes allowed in all");
    QTest::addRow("ms") << QByteArray("calls=10; ms=0")
                        << QStringLiteral("dispatch_timeout: the call tree ran past its 0 ms");
}

void TestRestInputs::refusalsQuoteTheBudgetInForce()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, quoted);
    const RawAnswer answer = exchange("POST", "/api/dispatch", R"({"key":"ZZ_PAGED","body":"hello world"})",
                                      "Capdesk-Call-Budget: " + header + "\r\n");
    const QString text = QString::fromUtf8(QJsonDocument(answer.json).toJson(QJsonDocument::Compact));
    QVERIFY2(text.contains(quoted), qPrintable(text));
}

QTEST_GUILESS_MAIN(TestRestInputs)
#include "tst_restinputs.moc"
