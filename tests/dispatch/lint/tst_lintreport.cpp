#include "dispatch/lint/lintreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// The exported report: JSON as `capdeskctl lint` prints it, CSV quoted per RFC 4180.
class TestLintReport : public QObject
{
    Q_OBJECT

private slots:
    void jsonHasTheCliShape();
    void csvQuotesWhatNeedsIt_data();
    void csvQuotesWhatNeedsIt();
};

void TestLintReport::jsonHasTheCliShape()
{
    const LintFinding finding{QStringLiteral("K"),        QStringLiteral("H010"),
                              QStringLiteral("doc_what"), QStringLiteral("error"),
                              QStringLiteral("content"),  QStringLiteral("add a WHAT line")};
    const QJsonArray array = QJsonDocument::fromJson(LintReport::toJson({finding})).array();
    QCOMPARE(array.size(), 1);
    const QJsonObject object = array.first().toObject();
    QCOMPARE(object.keys(),
             (QStringList{QStringLiteral("code"), QStringLiteral("field"), QStringLiteral("key"),
                          QStringLiteral("message"), QStringLiteral("name"), QStringLiteral("severity")}));
    QCOMPARE(object.value(QStringLiteral("code")).toString(), QStringLiteral("H010"));
    QCOMPARE(LintReport::toJson({}).trimmed(), QByteArray("[\n]"));
}

void TestLintReport::csvQuotesWhatNeedsIt_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("cell");
    QTest::addRow("plain") << QStringLiteral("add a line") << QStringLiteral("add a line");
    QTest::addRow("comma") << QStringLiteral("a, b") << QStringLiteral("\"a, b\"");
    QTest::addRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
    QTest::addRow("newline") << QStringLiteral("one\ntwo") << QStringLiteral("\"one\ntwo\"");
}

void TestLintReport::csvQuotesWhatNeedsIt()
{
    QFETCH(QString, message);
    QFETCH(QString, cell);
    const LintFinding finding{QStringLiteral("K"),     QStringLiteral("H010"),    QStringLiteral("doc_what"),
                              QStringLiteral("error"), QStringLiteral("content"), message};
    const QString csv = QString::fromUtf8(LintReport::toCsv({finding}));
    QCOMPARE(csv, QStringLiteral("key,code,name,severity,field,message\r\nK,H010,doc_what,error,content,")
                      + cell + QStringLiteral("\r\n"));
}

QTEST_GUILESS_MAIN(TestLintReport)
#include "tst_lintreport.moc"
