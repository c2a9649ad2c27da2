#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("tst-change-feed-owner-key-3e8d1a");

using Headers = QList<std::pair<QByteArray, QByteArray>>;

struct Answer
{
    int status = 0;
    QByteArray body;
    QJsonObject json;
    Headers headers;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
    QStringList keys(const char *member) const
    {
        QStringList keys;
        for (const QJsonValue &entry : json.value(QLatin1String(member)).toArray())
            keys.append(entry.isObject() ? entry.toObject().value(u"key"_s).toString() : entry.toString());
        keys.sort();
        return keys;
    }
};

QJsonObject rowObject(const QString &key)
{
    return {{u"key"_s, key},
            {u"type"_s, u"fn"_s},
            {u"target"_s, u"echo"_s},
            {u"category"_s, u"tools"_s},
            {u"content"_s, u"# WHAT: echo for a change-feed test.\n# WHEN_TO_USE: a test needs it.\n"
                           u"# ARGS: $1=text\n# EX: [%1]hi[/%1]\n# OUTPUT: the text\n[\"$1\"]"_s.arg(key)}};
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// What another writer does to the served directory between two polls.
enum class Change {
    Create,
    Patch,
    Delete,
    ImportWithOldTimestamps,
    WriteInTheSameMillisecond,
    PutFromAnotherProcess,
    RawSqlUpdate,
};

} // namespace

Q_DECLARE_METATYPE(Change)

// capdeskctl serve's change feed, beyond SPEC §10: `?since_seq=N` from the event log,
// and an ETag with 304 on the plain listing.
class TestDirectoryChangeFeed : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void sinceSeqSeesEveryWrite_data();
    void sinceSeqSeesEveryWrite();
    void sinceSeqIsRangeChecked_data();
    void sinceSeqIsRangeChecked();
    void aSeqBeyondTheLogIsACompleteListing();
    void theListingAnswersIfNoneMatch_data();
    void theListingAnswersIfNoneMatch();
    void theETagFollowsRowsNotReceipts();

private:
    Answer call(const QByteArray &verb, const QString &path, const QByteArray &body = {},
                Headers headers = {});
    Answer owner(const QByteArray &verb, const QString &path, const QByteArray &body = {})
    {
        return call(verb, path, body, {{QByteArrayLiteral("x-terminal-key"), kOwnerKey}});
    }
    qint64 currentSeq();
    void apply(Change change);
    ProcessRun::Result ctl(const QStringList &arguments, const QByteArray &input = {});

    QTemporaryDir m_dir;
    QString m_db;
    ServeProcess m_serve;
    QNetworkAccessManager m_network;
    int m_keys = 0;
    QString m_key; // the row this test's changes are made to
};

void TestDirectoryChangeFeed::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"served.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, m_db}).exitCode, 0);
    QString error;
    QVERIFY2(m_serve.start(m_db, kOwnerKey, &error), qPrintable(error));
}

void TestDirectoryChangeFeed::init()
{
    m_key = u"ROW_%1"_s.arg(++m_keys);
    QCOMPARE(owner("POST", u"/api/directory"_s, compact(rowObject(m_key))).status, 201);
}

void TestDirectoryChangeFeed::cleanupTestCase()
{
    m_serve.stop();
}

ProcessRun::Result TestDirectoryChangeFeed::ctl(const QStringList &arguments, const QByteArray &input)
{
    return ProcessRun::run(ServeProcess::program(), arguments, input);
}

Answer TestDirectoryChangeFeed::call(const QByteArray &verb, const QString &path, const QByteArray &body,
                                     Headers headers)
{
    QNetworkRequest request(m_serve.baseUrl().resolved(QUrl(path)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    std::unique_ptr<QNetworkReply> reply(m_network.sendCustomRequest(request, verb, body));
    if (!QTest::qWaitFor([&] { return reply->isFinished(); }, 20000))
        return {};
    Answer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.json = QJsonDocument::fromJson(answer.body).object();
    answer.headers = reply->rawHeaderPairs();
    return answer;
}

qint64 TestDirectoryChangeFeed::currentSeq()
{
    const Answer page = call("GET", u"/api/directory?fields=summary&limit=1"_s);
    return page.status == 200 && page.json.value(u"seq"_s).isDouble() ? page.json.value(u"seq"_s).toInteger()
                                                                      : -1;
}

void TestDirectoryChangeFeed::apply(Change change)
{
    switch (change) {
    case Change::Create:
        QCOMPARE(owner("POST", u"/api/directory"_s, compact(rowObject(m_key + u"_NEW"_s))).status, 201);
        return;
    case Change::Patch:
        QCOMPARE(
            owner("PATCH", u"/api/directory/"_s + m_key, compact({{u"category"_s, u"patched"_s}})).status,
            200);
        return;
    case Change::Delete:
        QCOMPARE(owner("DELETE", u"/api/directory/"_s + m_key).status, 200);
        return;
    case Change::ImportWithOldTimestamps:
    case Change::WriteInTheSameMillisecond: {
        // Another process on the served file, keeping the rows' own updated_at: an old one,
        // or exactly that of the newest row a client saw.
        QJsonObject imported = rowObject(m_key + u"_NEW"_s);
        imported.insert(u"updated_at"_s,
                        change == Change::ImportWithOldTimestamps
                            ? u"2001-02-03T04:05:06.007Z"_s
                            : call("GET", u"/api/directory/"_s + m_key).json.value(u"updated_at"_s));
        const QString file = m_dir.filePath(m_key + u".json"_s);
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(QJsonArray{imported}).toJson());
        out.close();
        const ProcessRun::Result run = ctl({u"import"_s, file, u"--db"_s, m_db});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        return;
    }
    case Change::PutFromAnotherProcess: {
        QJsonObject row = rowObject(m_key);
        row.insert(u"target"_s, u"upper"_s);
        const ProcessRun::Result put = ctl({u"put"_s, u"--db"_s, m_db}, compact(row));
        QVERIFY2(put.exitCode == 0, put.err.constData());
        return;
    }
    case Change::RawSqlUpdate:
        QCOMPARE(RawSql::exec(m_db, {u"UPDATE directory SET target = 'lower' WHERE key = '%1'"_s.arg(m_key)}),
                 QString());
        return;
    }
}

void TestDirectoryChangeFeed::sinceSeqSeesEveryWrite_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<bool>("newRow"); // the change made ROW_n_NEW, else it touched ROW_n
    QTest::addColumn<bool>("removed"); // ROW_n is gone
    QTest::addColumn<bool>("complete");
    QTest::addRow("create") << Change::Create << true << false << false;
    QTest::addRow("patch") << Change::Patch << false << false << false;
    QTest::addRow("delete") << Change::Delete << false << true << false;
    QTest::addRow("import with an old timestamp")
        << Change::ImportWithOldTimestamps << true << false << false;
    QTest::addRow("a write in the same millisecond")
        << Change::WriteInTheSameMillisecond << true << false << false;
    QTest::addRow("capdeskctl put from another process")
        << Change::PutFromAnotherProcess << false << false << false;
    QTest::addRow("plain SQL on the served file") << Change::RawSqlUpdate << false << false << true;
}

void TestDirectoryChangeFeed::sinceSeqSeesEveryWrite()
{
    QFETCH(Change, change);
    QFETCH(bool, newRow);
    QFETCH(bool, removed);
    QFETCH(bool, complete);
    const qint64 seq = currentSeq();
    QVERIFY(seq > 0);

    apply(change);
    if (QTest::currentTestFailed())
        return;
    const Answer answer = call("GET", u"/api/directory?since_seq=%1&fields=summary"_s.arg(seq));

    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.json.value(u"complete"_s).toBool(), complete);
    const qint64 next = answer.json.value(u"seq"_s).toInteger();
    QVERIFY(next > seq);
    const QString touched = newRow ? m_key + u"_NEW"_s : m_key;
    if (complete) {
        QVERIFY(answer.keys("rows").contains(m_key));
        QVERIFY(answer.keys("rows").size() >= m_keys); // every row, not only the changed one
    } else {
        QCOMPARE(answer.keys("rows"), removed ? QStringList() : QStringList{touched});
        QCOMPARE(answer.keys("removed"), removed ? QStringList{touched} : QStringList());
    }
    for (const QJsonValue &row : answer.json.value(u"rows"_s).toArray()) {
        const QJsonObject summary = row.toObject();
        const Answer stored = call("GET", u"/api/directory/"_s + summary.value(u"key"_s).toString());
        QCOMPARE(summary.value(u"updated_at"_s), stored.json.value(u"updated_at"_s));
        QCOMPARE(summary.value(u"target"_s), stored.json.value(u"target"_s));
        QVERIFY(!summary.contains(u"content"_s)); // summaries only
    }
    // Asked again from the seq it gave: nothing new.
    const Answer again = call("GET", u"/api/directory?since_seq=%1&fields=summary"_s.arg(next));
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json.value(u"seq"_s).toInteger(), next);
    QCOMPARE(again.json.value(u"complete"_s).toBool(), false);
    QVERIFY(again.json.value(u"rows"_s).toArray().isEmpty());
    QVERIFY(again.json.value(u"removed"_s).toArray().isEmpty());
}

void TestDirectoryChangeFeed::sinceSeqIsRangeChecked_data()
{
    QTest::addColumn<QString>("query");
    for (const char *value : {"-1", "abc", "1.5", "", "%201", "9223372036854775808", "99999999999999999999",
                              "0x10", "%2B1", "1e3"})
        QTest::addRow("since_seq=%s", value) << u"since_seq=%1"_s.arg(QLatin1String(value));
    QTest::addRow("twice") << u"since_seq=1&since_seq=2"_s;
    QTest::addRow("with limit") << u"since_seq=1&limit=5"_s;
    QTest::addRow("with after") << u"since_seq=1&after=A"_s;
    QTest::addRow("with q") << u"since_seq=1&q=echo"_s;
    QTest::addRow("with other fields") << u"since_seq=1&fields=all"_s;
}

void TestDirectoryChangeFeed::sinceSeqIsRangeChecked()
{
    QFETCH(QString, query);
    const Answer answer = call("GET", u"/api/directory?"_s + query);
    QCOMPARE(answer.status, 400);
    QVERIFY2(answer.json.value(u"error"_s).toString().contains(u"since_seq"_s), answer.body.constData());
}

void TestDirectoryChangeFeed::aSeqBeyondTheLogIsACompleteListing()
{
    const Answer answer = call("GET", u"/api/directory?since_seq=9223372036854775807"_s);
    QCOMPARE(answer.status, 200); // keyless, like every read
    QCOMPARE(answer.json.value(u"complete"_s).toBool(), true);
    QVERIFY(answer.keys("rows").contains(m_key));
    QCOMPARE(answer.json.value(u"seq"_s).toInteger(), currentSeq());
}

void TestDirectoryChangeFeed::theListingAnswersIfNoneMatch_data()
{
    QTest::addColumn<QByteArray>("form"); // %1: the ETag the listing gave
    QTest::addColumn<int>("status");
    QTest::addRow("the same tag") << QByteArrayLiteral("%1") << 304;
    QTest::addRow("weak") << QByteArrayLiteral("W/%1") << 304;
    QTest::addRow("in a list") << QByteArrayLiteral("\"other\", %1") << 304;
    QTest::addRow("any") << QByteArrayLiteral("*") << 304;
    QTest::addRow("another tag") << QByteArrayLiteral("\"0-0000000000000000\"") << 200;
    QTest::addRow("not a tag") << QByteArrayLiteral("not a tag") << 200;
}

void TestDirectoryChangeFeed::theListingAnswersIfNoneMatch()
{
    QFETCH(QByteArray, form);
    QFETCH(int, status);
    const Answer listing = call("GET", u"/api/directory"_s);
    QCOMPARE(listing.status, 200);
    const QByteArray etag = listing.header("ETag");
    QVERIFY(etag.startsWith('"') && etag.endsWith('"'));

    const Answer answer = call("GET", u"/api/directory"_s, {},
                               {{QByteArrayLiteral("If-None-Match"), QByteArray(form).replace("%1", etag)}});

    QCOMPARE(answer.status, status);
    QCOMPARE(answer.header("ETag"), etag);
    if (status == 304)
        QVERIFY(answer.body.isEmpty());
    else
        QCOMPARE(answer.body, listing.body);
}

void TestDirectoryChangeFeed::theETagFollowsRowsNotReceipts()
{
    // The server's first receipt opens its receipt chain with an event; later ones add none.
    QCOMPARE(owner("POST", u"/api/dispatch"_s, compact({{u"key"_s, m_key}, {u"body"_s, u"first"_s}})).status,
             200);
    const QByteArray before = call("GET", u"/api/directory"_s).header("ETag");
    // A call writes a receipt (a commit) and leaves every row as it was.
    const Answer invoked =
        owner("POST", u"/api/dispatch"_s, compact({{u"key"_s, m_key}, {u"body"_s, u"hi"_s}}));
    QCOMPARE(invoked.status, 200);
    QVERIFY(invoked.json.value(u"proof"_s).toObject().contains(u"invocation_id"_s));
    const Answer unchanged =
        call("GET", u"/api/directory"_s, {}, {{QByteArrayLiteral("If-None-Match"), before}});
    QCOMPARE(unchanged.status, 304);

    QCOMPARE(owner("PATCH", u"/api/directory/"_s + m_key, compact({{u"category"_s, u"moved"_s}})).status,
             200);
    const Answer changed =
        call("GET", u"/api/directory"_s, {}, {{QByteArrayLiteral("If-None-Match"), before}});
    QCOMPARE(changed.status, 200);
    QVERIFY(changed.header("ETag") != before);
}

QTEST_GUILESS_MAIN(TestDirectoryChangeFeed)
#include "tst_directorychangefeed.moc"
