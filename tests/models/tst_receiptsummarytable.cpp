#include "models/receiptsummarytable.h"

#include <QDateTime>
#include <QTest>

// The compact receipt records: the engine's timestamps parsed without QDateTime, the
// interned texts, the id search and the merge of a newer read.
class TestReceiptSummaryTable : public QObject
{
    Q_OBJECT

private slots:
    void parsesEngineTimestamps_data();
    void parsesEngineTimestamps();
    void internsTexts();
    void keepsParentsAndFindsInvocations();
    void appendsANewerRead();
};

namespace {

ReceiptSummaryView view(qint64 seq, const char *id, const char *trace, const char *parent, const char *key)
{
    ReceiptSummaryView receipt;
    receipt.seq = seq;
    receipt.invocationId = id;
    receipt.trace = trace;
    receipt.parent = parent;
    receipt.key = key;
    receipt.actor = "owner:terminal-key";
    receipt.runner = "fn";
    receipt.startedAt = "2026-07-26T04:36:19.832Z";
    receipt.status = "PROVEN_MATERIAL_RESULT";
    receipt.durationMs = seq * 10;
    receipt.material = true;
    return receipt;
}

} // namespace

void TestReceiptSummaryTable::parsesEngineTimestamps_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("msecs");
    auto qt = [](const char *iso) {
        return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
    };
    QTest::addRow("engine stamp") << QByteArray("2026-07-26T04:36:19.832Z") << qt("2026-07-26T04:36:19.832Z");
    QTest::addRow("no fraction") << QByteArray("2026-07-26T04:36:19Z") << qt("2026-07-26T04:36:19Z");
    QTest::addRow("one digit") << QByteArray("2026-07-26T04:36:19.8Z") << qt("2026-07-26T04:36:19.800Z");
    QTest::addRow("micros cut to ms")
        << QByteArray("2026-07-26T04:36:19.832999Z") << qt("2026-07-26T04:36:19.832Z");
    QTest::addRow("leap day") << QByteArray("2024-02-29T23:59:59.999Z") << qt("2024-02-29T23:59:59.999Z");
    QTest::addRow("epoch") << QByteArray("1970-01-01T00:00:00.000Z") << qint64(0);
    QTest::addRow("before the epoch") << QByteArray("1969-12-31T23:59:59.000Z") << qint64(-1000);
    QTest::addRow("local offset") << QByteArray("2026-07-26T04:36:19.832+02:00") << qint64(0);
    QTest::addRow("no zone") << QByteArray("2026-07-26T04:36:19.832") << qint64(0);
    QTest::addRow("month 13") << QByteArray("2026-13-26T04:36:19.832Z") << qint64(0);
    QTest::addRow("text") << QByteArray("yesterday") << qint64(0);
    QTest::addRow("empty") << QByteArray() << qint64(0);
}

void TestReceiptSummaryTable::parsesEngineTimestamps()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, msecs);
    QCOMPARE(ReceiptSummaryTable::parseIsoMsecs(std::string_view(text.constData(), std::size_t(text.size()))),
             msecs);
}

void TestReceiptSummaryTable::internsTexts()
{
    ReceiptSummaryTable table;
    table.append(view(1, "inv_a", "t_a", "", "NOW"));
    table.append(view(2, "inv_b", "t_b", "", "ECHO"));
    table.append(view(3, "inv_c", "t_c", "", "NOW"));
    using Field = ReceiptSummaryTable::Field;
    QCOMPARE(table.distinctCount(Field::Key), 2);
    QCOMPARE(table.distinctCount(Field::Actor), 1);
    QCOMPARE(table.textId(0, Field::Key), table.textId(2, Field::Key));
    QCOMPARE(table.textOf(1, Field::Key), QStringLiteral("ECHO"));
    QCOMPARE(table.startedMsecs(0), ReceiptSummaryTable::parseIsoMsecs("2026-07-26T04:36:19.832Z"));
}

void TestReceiptSummaryTable::keepsParentsAndFindsInvocations()
{
    ReceiptSummaryTable table;
    table.append(view(1, "inv_child1", "t_flow", "inv_parent", "NOW"));
    table.append(view(2, "inv_child2", "t_flow", "inv_parent", "NOW"));
    table.append(view(3, "inv_parent", "t_flow", "", "MORNING"));
    table.append(view(4, "inv_other", "t_else", "", "NOW"));
    QCOMPARE(table.parent(0), QStringLiteral("inv_parent"));
    QVERIFY(table.parent(2).isNull());
    QCOMPARE(table.indexOfInvocation("inv_parent"), 2);
    QCOMPARE(table.indexOfInvocation("inv_par"), -1);
}

void TestReceiptSummaryTable::appendsANewerRead()
{
    ReceiptSummaryTable table;
    table.append(view(1, "inv_a", "t_a", "", "NOW"));
    ReceiptSummaryTable newer;
    newer.append(view(5, "inv_b", "t_b", "inv_a", "ECHO"));
    newer.append(view(9, "inv_c", "t_c", "", "NOW"));
    table.appendAll(newer);
    QCOMPARE(table.size(), 3);
    QCOMPARE(table.lastSeq(), qint64(9));
    QCOMPARE(table.indexOfSeq(5), 1);
    QCOMPARE(table.indexOfSeq(4), -1);
    QCOMPARE(table.invocationId(1), QStringLiteral("inv_b"));
    QCOMPARE(table.parent(1), QStringLiteral("inv_a"));
    QCOMPARE(table.durationMs(2), qint64(90));
    QCOMPARE(table.textOf(2, ReceiptSummaryTable::Field::Key), QStringLiteral("NOW"));
    QCOMPARE(table.distinctCount(ReceiptSummaryTable::Field::Key), 2);
}

QTEST_GUILESS_MAIN(TestReceiptSummaryTable)
#include "tst_receiptsummarytable.moc"
