#include "dispatch/store/sqlstatementsplitter.h"

#include <QTest>

class TestSqlStatementSplitter : public QObject
{
    Q_OBJECT

private slots:
    void split_data();
    void split();
    void refuses_data();
    void refuses();
};

void TestSqlStatementSplitter::split_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<QList<int>>("lines");

    QTest::addRow("one per line") << QStringLiteral("A;\nB;\n")
                                  << QStringList{QStringLiteral("A"), QStringLiteral("B")}
                                  << QList<int>{1, 2};
    QTest::addRow("several on a line")
        << QStringLiteral("A; B;C;")
        << QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")} << QList<int>{1, 1, 1};
    QTest::addRow("';' inside a string")
        << QStringLiteral("INSERT INTO t VALUES('a;b');")
        << QStringList{QStringLiteral("INSERT INTO t VALUES('a;b')")} << QList<int>{1};
    QTest::addRow("doubled quote") << QStringLiteral("X('it''s;');Y;")
                                   << QStringList{QStringLiteral("X('it''s;')"), QStringLiteral("Y")}
                                   << QList<int>{1, 1};
    QTest::addRow("newline in a string moves later lines")
        << QStringLiteral("X('a\nb\nc');\nY;")
        << QStringList{QStringLiteral("X('a\nb\nc')"), QStringLiteral("Y")} << QList<int>{1, 4};
    QTest::addRow("quoted identifier holding ';'")
        << QStringLiteral("INSERT INTO \"a;b\" VALUES(1);")
        << QStringList{QStringLiteral("INSERT INTO \"a;b\" VALUES(1)")} << QList<int>{1};
    QTest::addRow("line comment holding ';'")
        << QStringLiteral("-- a;b\nX;") << QStringList{QStringLiteral("X")} << QList<int>{2};
    QTest::addRow("block comment over lines")
        << QStringLiteral("/* a;\n b */ X;") << QStringList{QStringLiteral("X")} << QList<int>{2};
    QTest::addRow("trigger body keeps its ';'s")
        << QStringLiteral("CREATE TRIGGER t AFTER INSERT ON d BEGIN UPDATE d SET a = 1; END;\nX;")
        << QStringList{QStringLiteral("CREATE TRIGGER t AFTER INSERT ON d BEGIN UPDATE d SET a = 1; END"),
                       QStringLiteral("X")}
        << QList<int>{1, 2};
    QTest::addRow("empty statements skipped")
        << QStringLiteral(";;\n;X;;") << QStringList{QStringLiteral("X")} << QList<int>{2};
    QTest::addRow("CRLF line ends") << QStringLiteral("A;\r\nB;\r\n")
                                    << QStringList{QStringLiteral("A"), QStringLiteral("B")}
                                    << QList<int>{1, 2};
    QTest::addRow("nothing") << QString() << QStringList() << QList<int>();
}

void TestSqlStatementSplitter::split()
{
    QFETCH(QString, sql);
    QFETCH(QStringList, texts);
    QFETCH(QList<int>, lines);

    const StoreResult<QList<SqlStatement>> result = SqlStatementSplitter::split(sql);
    QVERIFY2(result.ok(), qPrintable(result.error().message));
    QStringList gotTexts;
    QList<int> gotLines;
    for (const SqlStatement &statement : result.value()) {
        gotTexts.append(statement.text);
        gotLines.append(statement.line);
    }
    QCOMPARE(gotTexts, texts);
    QCOMPARE(gotLines, lines);
}

void TestSqlStatementSplitter::refuses_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("message");

    QTest::addRow("statement cut off") << QStringLiteral("A;\n\nINSERT INTO d VALUES(1")
                                       << QStringLiteral("line 3: statement is not terminated");
    QTest::addRow("string cut off") << QStringLiteral("A;\nX('abc\ndef")
                                    << QStringLiteral("line 2: unterminated quoted text");
    QTest::addRow("identifier cut off")
        << QStringLiteral("INSERT INTO \"dir") << QStringLiteral("line 1: unterminated quoted text");
    QTest::addRow("comment cut off") << QStringLiteral("A;\n/* abc")
                                     << QStringLiteral("line 2: unterminated comment");
}

void TestSqlStatementSplitter::refuses()
{
    QFETCH(QString, sql);
    QFETCH(QString, message);

    const StoreResult<QList<SqlStatement>> result = SqlStatementSplitter::split(sql);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(result.error().message.startsWith(message), qPrintable(result.error().message));
}

QTEST_GUILESS_MAIN(TestSqlStatementSplitter)
#include "tst_sqlstatementsplitter.moc"
