#include "dispatch/invoke/worldeffects.h"

#include <QHash>
#include <QTest>

using namespace Qt::StringLiterals;

// Which rows ask before they run: the classification the invoke panel, the debugger and
// the MCP annotations share.
class TestWorldEffects : public QObject
{
    Q_OBJECT

private slots:
    void ofRow_data();
    void ofRow();
    void flowsReachTheirSteps_data();
    void flowsReachTheirSteps();
};

namespace {

Row makeRow(const QString &key, const QString &type, const QString &target, bool sensitive = false,
            const QString &content = QString())
{
    Row row;
    row.key = key;
    row.type = type;
    row.target = target;
    row.sensitive = sensitive;
    row.content = content;
    return row;
}

QHash<QString, Row> directory()
{
    const QList<Row> rows{
        makeRow(u"NOW"_s, u"fn"_s, u"now"_s),
        makeRow(u"LIST"_s, u"http"_s, u"GET https://api.example.com/items"_s),
        makeRow(u"SEND"_s, u"http"_s, u"POST https://api.example.com/send"_s),
        makeRow(u"ASK"_s, u"agent"_s, u"grok-4"_s),
        makeRow(u"READ_FLOW"_s, u"flow"_s, QString(), false, u"NOW > LIST: $PREV"_s),
        makeRow(u"SEND_FLOW"_s, u"flow"_s, QString(), false,
                u"# doc line naming DELETE_ALL\nNOW > SEND: $PREV"_s),
        makeRow(u"FAN_FLOW"_s, u"flow"_s, QString(), false, u"{ LIST: a | ASK: b } > NOW"_s),
        makeRow(u"OUTER"_s, u"flow"_s, QString(), false, u"READ_FLOW > SEND_FLOW > SEND"_s),
        makeRow(u"LOOP_A"_s, u"flow"_s, QString(), false, u"LOOP_B > SEND"_s),
        makeRow(u"LOOP_B"_s, u"flow"_s, QString(), false, u"LOOP_A"_s),
        makeRow(u"GHOST_FLOW"_s, u"flow"_s, QString(), false, u"NO_SUCH_ROW > NOW"_s),
        makeRow(u"DEEP_1"_s, u"flow"_s, QString(), false, u"DEEP_2"_s),
        makeRow(u"DEEP_2"_s, u"flow"_s, QString(), false, u"SEND"_s),
    };
    QHash<QString, Row> byKey;
    for (const Row &row : rows)
        byKey.insert(row.key, row);
    return byKey;
}

QStringList described(const QList<WorldEffect> &effects)
{
    QStringList lines;
    for (const WorldEffect &effect : effects)
        lines.append(effect.describe());
    return lines;
}

} // namespace

void TestWorldEffects::ofRow_data()
{
    QTest::addColumn<Row>("row");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("fn reads") << makeRow(u"NOW"_s, u"fn"_s, u"now"_s) << QStringList();
    QTest::newRow("GET reads") << makeRow(u"L"_s, u"http"_s, u"GET https://h/x"_s) << QStringList();
    QTest::newRow("HEAD reads") << makeRow(u"L"_s, u"http"_s, u"  head https://h/x"_s) << QStringList();
    QTest::newRow("POST writes") << makeRow(u"S"_s, u"http"_s, u"POST https://h/send"_s)
                                 << QStringList{u"S: POST https://h/send"_s};
    QTest::newRow("PUT writes") << makeRow(u"S"_s, u"http"_s, u"PUT https://h/x/$1"_s)
                                << QStringList{u"S: PUT https://h/x/$1"_s};
    QTest::newRow("PATCH writes") << makeRow(u"S"_s, u"http"_s, u"PATCH https://h/x"_s)
                                  << QStringList{u"S: PATCH https://h/x"_s};
    QTest::newRow("DELETE writes") << makeRow(u"D"_s, u"http"_s, u"DELETE https://h/x"_s)
                                   << QStringList{u"D: DELETE https://h/x"_s};
    QTest::newRow("unknown method counts as a write")
        << makeRow(u"S"_s, u"http"_s, u"FETCH https://h"_s) << QStringList{u"S: FETCH https://h"_s};
    QTest::newRow("no method at all")
        << makeRow(u"S"_s, u"http"_s, u"https://h"_s) << QStringList{u"S: https://h"_s};
    QTest::newRow("agent") << makeRow(u"A"_s, u"agent"_s, u"grok-4"_s)
                           << QStringList{u"A: asks model grok-4"_s};
    QTest::newRow("sensitive fn") << makeRow(u"K"_s, u"fn"_s, u"now"_s, true)
                                  << QStringList{u"K: marked sensitive"_s};
    QTest::newRow("sensitive GET") << makeRow(u"K"_s, u"http"_s, u"GET https://h"_s, true)
                                   << QStringList{u"K: marked sensitive"_s};
    QTest::newRow("sensitive DELETE names both")
        << makeRow(u"K"_s, u"http"_s, u"DELETE https://h"_s, true)
        << QStringList{u"K: DELETE https://h"_s, u"K: marked sensitive"_s};
    QTest::newRow("a flow alone does nothing itself")
        << makeRow(u"F"_s, u"flow"_s, QString(), false, u"SEND"_s) << QStringList();
}

void TestWorldEffects::ofRow()
{
    QFETCH(Row, row);
    QFETCH(QStringList, expected);
    QCOMPARE(described(WorldEffects::ofRow(row)), expected);
}

void TestWorldEffects::flowsReachTheirSteps_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<QStringList>("expected");

    const QString send = u"SEND: POST https://api.example.com/send"_s;
    QTest::newRow("reading flow") << u"READ_FLOW"_s << 8 << QStringList();
    QTest::newRow("a step that writes, doc lines ignored") << u"SEND_FLOW"_s << 8 << QStringList{send};
    QTest::newRow("fan-out branches") << u"FAN_FLOW"_s << 8 << QStringList{u"ASK: asks model grok-4"_s};
    QTest::newRow("nested flows, each row once") << u"OUTER"_s << 8 << QStringList{send};
    QTest::newRow("a cycle ends") << u"LOOP_A"_s << 8 << QStringList{send};
    QTest::newRow("unknown steps skipped") << u"GHOST_FLOW"_s << 8 << QStringList();
    QTest::newRow("within the depth limit") << u"DEEP_1"_s << 2 << QStringList{send};
    QTest::newRow("past the depth limit") << u"DEEP_1"_s << 1 << QStringList();
}

void TestWorldEffects::flowsReachTheirSteps()
{
    QFETCH(QString, key);
    QFETCH(int, maxDepth);
    QFETCH(QStringList, expected);
    const QHash<QString, Row> rows = directory();
    const auto lookup = [&rows](const QString &name) -> std::optional<Row> {
        if (!rows.contains(name))
            return std::nullopt;
        return rows.value(name);
    };
    QCOMPARE(described(WorldEffects::of(rows.value(key), lookup, maxDepth)), expected);
}

QTEST_APPLESS_MAIN(TestWorldEffects)
#include "tst_worldeffects.moc"
