#include "dispatch/call/flowrunrecord.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;

// The body of our server's POST /api/flow-runs, read strictly: what a hostile or a
// mistaken client sends is refused with the member named, never half taken.
class TestFlowRunRecord : public QObject
{
    Q_OBJECT

private slots:
    void roundTrips();
    void refuses_data();
    void refuses();
};

namespace {

FlowRunRecord sample()
{
    FlowRunRecord record;
    record.key = u"MORNING"_s;
    record.body = u"37.77|-122.42"_s;
    record.output = u"{\"ok\":true}"_s;
    record.invocationId = u"inv_0123456789"_s;
    record.trace = u"t_abcdefgh"_s;
    record.startedAt = u"2026-12-03T08:00:00.125Z"_s;
    record.activeMs = 412;
    return record;
}

} // namespace

void TestFlowRunRecord::roundTrips()
{
    QString error;
    const std::optional<FlowRunRecord> read = FlowRunRecord::fromJson(sample().toJson(), &error);
    QVERIFY2(read, qPrintable(error));
    QCOMPARE(read->key, sample().key);
    QCOMPARE(read->body, sample().body);
    QCOMPARE(read->output, sample().output);
    QCOMPARE(read->invocationId, sample().invocationId);
    QCOMPARE(read->trace, sample().trace);
    QCOMPARE(read->startedAt, sample().startedAt);
    QCOMPARE(read->activeMs, 412);
    // The actor is never the client's to say: the server sets it.
    QVERIFY(!sample().toJson().contains(u"actor"_s));
}

void TestFlowRunRecord::refuses_data()
{
    QTest::addColumn<QString>("member");
    QTest::addColumn<QJsonValue>("value"); // undefined: the member is left out
    QTest::addColumn<QString>("error");

    QTest::addRow("no key") << u"key"_s << QJsonValue(QJsonValue::Undefined) << u"key is required"_s;
    QTest::addRow("empty key") << u"key"_s << QJsonValue(u""_s)
                               << u"field 'key' must be a non-empty string"_s;
    QTest::addRow("key a number") << u"key"_s << QJsonValue(7) << u"field 'key' must be a string"_s;
    QTest::addRow("no output") << u"output"_s << QJsonValue(QJsonValue::Undefined) << u"output is required"_s;
    QTest::addRow("id malformed")
        << u"invocation_id"_s << QJsonValue(u"inv_ABC"_s)
        << u"field 'invocation_id' must be inv_ and 10 lowercase base-36 characters"_s;
    QTest::addRow("trace malformed") << u"trace"_s << QJsonValue(u"t_1"_s)
                                     << u"field 'trace' must be t_ and 8 lowercase base-36 characters"_s;
    QTest::addRow("time not UTC") << u"started_at"_s << QJsonValue(u"2026-12-03T08:00:00+02:00"_s)
                                  << u"field 'started_at' must be an ISO-8601 UTC time"_s;
    QTest::addRow("time garbage") << u"started_at"_s << QJsonValue(u"yesterday"_s)
                                  << u"field 'started_at' must be an ISO-8601 UTC time"_s;
    const QString range =
        u"field 'duration_ms' must be a whole number from 0 to %1"_s.arg(FlowRunRecord::kMaxActiveMs);
    QTest::addRow("duration negative") << u"duration_ms"_s << QJsonValue(-1) << range;
    QTest::addRow("duration fractional") << u"duration_ms"_s << QJsonValue(1.5) << range;
    QTest::addRow("duration past a week")
        << u"duration_ms"_s << QJsonValue(double(FlowRunRecord::kMaxActiveMs) + 1) << range;
    QTest::addRow("duration huge") << u"duration_ms"_s << QJsonValue(1e300) << range;
    QTest::addRow("duration a string")
        << u"duration_ms"_s << QJsonValue(u"5"_s) << u"field 'duration_ms' must be a number"_s;
    QTest::addRow("unknown member") << u"material"_s << QJsonValue(true)
                                    << u"unknown field 'material': a flow run names key, body, output, "
                                       "invocation_id, trace, started_at, duration_ms"_s;
}

void TestFlowRunRecord::refuses()
{
    QFETCH(QString, member);
    QFETCH(QJsonValue, value);
    QFETCH(QString, error);
    QJsonObject json = sample().toJson();
    if (value.isUndefined())
        json.remove(member);
    else
        json.insert(member, value);
    QString said;
    QVERIFY(!FlowRunRecord::fromJson(json, &said));
    QCOMPARE(said, error);
}

QTEST_GUILESS_MAIN(TestFlowRunRecord)
#include "tst_flowrunrecord.moc"
