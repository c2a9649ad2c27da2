#include "dispatch/row/rowbatchcheck.h"

#include <QTest>

class TestRowBatchCheck : public QObject
{
    Q_OBJECT

private slots:
    void check_data();
    void check();
};

void TestRowBatchCheck::check_data()
{
    // Rows as "KEY:type" (a missing ':' leaves the type NULL), taken keys, and the
    // message of the first refusal ("" when every row passes). Row i starts on line 10 * i.
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QStringList>("taken");
    QTest::addColumn<QString>("message");

    QTest::addRow("all four types, fresh keys")
        << QStringList{QStringLiteral("A:fn"), QStringLiteral("B:http"), QStringLiteral("C:agent"),
                       QStringLiteral("D:flow")}
        << QStringList{QStringLiteral("Z")} << QString();
    QTest::addRow("no key") << QStringList{QStringLiteral("A:fn"), QStringLiteral(":fn")} << QStringList()
                            << QStringLiteral("line 20: row 2: V005 key_text (key)");
    QTest::addRow("unknown type") << QStringList{QStringLiteral("A:lambda")} << QStringList()
                                  << QStringLiteral("line 10: row 1 ('A'): V001 type_known (type): type "
                                                    "'lambda' is not one of fn, http, agent, flow");
    QTest::addRow("types are case-sensitive")
        << QStringList{QStringLiteral("A:FN")} << QStringList()
        << QStringLiteral("line 10: row 1 ('A'): V001 type_known (type): type 'FN'");
    QTest::addRow("NULL type") << QStringList{QStringLiteral("A")} << QStringList()
                               << QStringLiteral("line 10: row 1 ('A'): V001 type_known (type): type NULL");
    QTest::addRow("empty type") << QStringList{QStringLiteral("A:")} << QStringList()
                                << QStringLiteral("line 10: row 1 ('A'): V001 type_known (type): type ''");
    QTest::addRow("key twice names both lines")
        << QStringList{QStringLiteral("A:fn"), QStringLiteral("B:fn"), QStringLiteral("A:http")}
        << QStringList() << QStringLiteral("line 30: key 'A' appears twice in the file (lines 10 and 30)");
    QTest::addRow("key already taken")
        << QStringList{QStringLiteral("A:fn"), QStringLiteral("B:fn")} << QStringList{QStringLiteral("B")}
        << QStringLiteral("line 20: key 'B' already exists in the directory");
    QTest::addRow("keys are case-sensitive") << QStringList{QStringLiteral("a:fn"), QStringLiteral("A:fn")}
                                             << QStringList{QStringLiteral("b")} << QString();
    QTest::addRow("runner outside edge, worker")
        << QStringList{QStringLiteral("A:fn:evil")} << QStringList()
        << QStringLiteral("line 10: row 1 ('A'): V002 runner_known (runner)");
}

void TestRowBatchCheck::check()
{
    QFETCH(QStringList, rows);
    QFETCH(QStringList, taken);
    QFETCH(QString, message);

    RowBatchCheck check(QSet<QString>(taken.cbegin(), taken.cend()));
    QString refusal;
    for (qsizetype i = 0; i < rows.size() && refusal.isEmpty(); ++i) {
        Row row;
        const qsizetype colon = rows.at(i).indexOf(u':');
        row.key = rows.at(i).left(colon);
        // KEY:TYPE[:RUNNER]; '' stays an empty, not NULL, type.
        const QStringList parts = rows.at(i).split(u':');
        if (colon >= 0)
            row.type = parts.at(1) + QStringLiteral("");
        if (parts.size() > 2)
            row.runner = parts.at(2);
        const StoreError error = check.add(row, int(10 * (i + 1)));
        if (error.isError()) {
            QCOMPARE(error.kind, StoreError::Kind::Invalid);
            refusal = error.message;
        }
    }
    if (message.isEmpty())
        QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
    else
        QVERIFY2(refusal.startsWith(message), qPrintable(refusal));
}

QTEST_GUILESS_MAIN(TestRowBatchCheck)
#include "tst_rowbatchcheck.moc"
