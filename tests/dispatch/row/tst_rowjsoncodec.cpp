#include "dispatch/row/rowjsoncodec.h"

#include <QTest>

class TestRowJsonCodec : public QObject
{
    Q_OBJECT

private slots:
    void decodes_data();
    void decodes();
    void refuses_data();
    void refuses();
    void roundTrip();
};

void TestRowJsonCodec::decodes_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QList<int>>("lines");

    QTest::addRow("empty array") << QByteArray("[]") << QStringList() << QList<int>();
    QTest::addRow("one line") << QByteArray(R"([{"key":"A","type":"fn"},{"key":"B","type":"http"}])")
                              << QStringList{QStringLiteral("A"), QStringLiteral("B")} << QList<int>{1, 1};
    QTest::addRow("indented, as encode() writes it")
        << QByteArray("[\n    {\n        \"key\": \"A\",\n        \"type\": \"fn\"\n    },\n    {\n        "
                      "\"key\": \"B\",\n"
                      "        \"type\": \"flow\"\n    }\n]\n")
        << QStringList{QStringLiteral("A"), QStringLiteral("B")} << QList<int>{2, 6};
    QTest::addRow("brackets, commas and escaped quotes inside strings do not confuse the lines")
        << QByteArray("[{\"key\":\"A\",\"type\":\"fn\",\"content\":\"[\\\"x\\\", {y}],\\n\"},\n"
                      "{\"key\":\"B\",\"type\":\"fn\",\"examples\":\"[\\\"1|2\\\"]\"}]")
        << QStringList{QStringLiteral("A"), QStringLiteral("B")} << QList<int>{1, 2};
}

void TestRowJsonCodec::decodes()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, keys);
    QFETCH(QList<int>, lines);

    QList<int> rowLines;
    const StoreResult<QList<Row>> rows = RowJsonCodec::decode(json, &rowLines);
    QVERIFY2(rows.ok(), qPrintable(rows.error().message));
    QStringList gotKeys;
    for (const Row &row : rows.value())
        gotKeys.append(row.key);
    QCOMPARE(gotKeys, keys);
    QCOMPARE(rowLines, lines);
}

void TestRowJsonCodec::refuses_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");

    QTest::addRow("malformed") << QByteArray(
        "[\n  {\"key\": \"A\", \"type\": \"fn\"},\n  {\"key\": \"B\" \"type\": \"fn\"}\n]")
                               << QStringLiteral("line 3: not valid JSON at column");
    QTest::addRow("cut off") << QByteArray("[\n  {\"key\": \"A\",\n")
                             << QStringLiteral("line 3: not valid JSON");
    QTest::addRow("not an array") << QByteArray("{\"key\": \"A\"}")
                                  << QStringLiteral("line 1: expected a JSON array of rows");
    QTest::addRow("element not an object")
        << QByteArray("[\n  {\"key\": \"A\", \"type\": \"fn\"},\n  \"B\"\n]")
        << QStringLiteral("line 3: element 2 is not a row object");
    QTest::addRow("unknown field names the row's line, index and key")
        << QByteArray("[\n  {\"key\": \"A\", \"type\": \"fn\"},\n  {\n    \"key\": \"B\",\n    \"colour\": "
                      "\"red\"\n  }\n]")
        << QStringLiteral("line 3: row 2 ('B'): unknown field 'colour'");
    QTest::addRow("integer column holding text")
        << QByteArray("[{\"key\": \"A\", \"type\": \"fn\", \"seq\": \"soon\"}]")
        << QStringLiteral("line 1: row 1 ('A'): field 'seq' must be null or a whole number from "
                          "-9007199254740991 to 9007199254740991");
    QTest::addRow("boolean column out of range")
        << QByteArray("[\n\n{\"key\": \"A\", \"type\": \"fn\", \"sensitive\": 3}]")
        << QStringLiteral("line 3: row 1 ('A'): field 'sensitive' must be 0 or 1");
}

void TestRowJsonCodec::refuses()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);

    const StoreResult<QList<Row>> rows = RowJsonCodec::decode(json);
    QVERIFY(!rows.ok());
    QCOMPARE(rows.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(rows.error().message.startsWith(message), qPrintable(rows.error().message));
}

void TestRowJsonCodec::roundTrip()
{
    Row full;
    full.key = QStringLiteral("FULL");
    full.type = QStringLiteral("agent");
    full.target = QStringLiteral("grok-4.3");
    full.auth = QStringLiteral("");
    full.content = QString::fromUtf8("line 1\nit's \"quoted\" \xe2\x80\x94 \xf0\x9f\x98\x80");
    full.updatedAt = QStringLiteral("2026-07-26T04:36:19.832Z");
    full.seq = 12;
    full.enabled = false;
    full.plannerRank = 7;
    full.sensitive = true;
    full.includes = QStringLiteral("BLOCK_VOICE");
    Row sparse;
    sparse.key = QStringLiteral("SPARSE");
    sparse.type = QStringLiteral("fn");
    const QList<Row> rows{full, sparse};

    const StoreResult<QList<Row>> back = RowJsonCodec::decode(RowJsonCodec::encode(rows));
    QVERIFY2(back.ok(), qPrintable(back.error().message));
    QCOMPARE(back.value().size(), rows.size());
    QVERIFY(!back.value().at(0).auth.isNull());
    QVERIFY(back.value().at(1).auth.isNull());
    QVERIFY(back.value().at(0) == full);
    QVERIFY(back.value().at(1) == sparse);
}

QTEST_GUILESS_MAIN(TestRowJsonCodec)
#include "tst_rowjsoncodec.moc"
