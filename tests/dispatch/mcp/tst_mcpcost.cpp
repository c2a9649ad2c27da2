#include "dispatch/mcp/mcpcost.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;

// A projection's size: the whole list's compact JSON and each tool's, tokens at ~4 bytes.
class TestMcpCost : public QObject
{
    Q_OBJECT

private slots:
    void sizes_data();
    void sizes();
};

void TestMcpCost::sizes_data()
{
    QTest::addColumn<QString>("tools");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QList<qint64>>("perTool");

    QTest::addRow("none") << u"[]"_s << qint64(12) << QList<qint64>();
    QTest::addRow("one") << uR"([{"name":"A"}])"_s << qint64(24) << QList<qint64>{12};
    QTest::addRow("two, the comma counted once") << uR"([{"name":"A"},{"name":"BB","description":"é"}])"_s
                                                 << qint64(24 + 1 + 32) << QList<qint64>{12, 32};
}

void TestMcpCost::sizes()
{
    QFETCH(QString, tools);
    QFETCH(qint64, bytes);
    QFETCH(QList<qint64>, perTool);

    const McpCost cost = McpCost::of(QJsonDocument::fromJson(tools.toUtf8()).array());
    QCOMPARE(cost.bytes, bytes);
    QCOMPARE(cost.tokens, (bytes + 3) / 4);
    QCOMPARE(cost.tools.size(), perTool.size());
    for (qsizetype i = 0; i < perTool.size(); ++i) {
        QCOMPARE(cost.tools.at(i).bytes, perTool.at(i));
        QCOMPARE(cost.tools.at(i).tokens, (perTool.at(i) + 3) / 4);
    }
    const QJsonObject json = cost.toJson();
    QCOMPARE(json.value(u"bytes"_s).toInteger(), bytes);
    QCOMPARE(json.value(u"per_tool"_s).toArray().size(), perTool.size());
}

QTEST_GUILESS_MAIN(TestMcpCost)
#include "tst_mcpcost.moc"
