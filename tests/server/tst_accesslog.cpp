#include "server/accesslog.h"

#include <QTest>

class TestAccessLog : public QObject
{
    Q_OBJECT

private slots:
    void redactedTarget_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("logged");
        QTest::addRow("plain path") << QStringLiteral("http://h/api/directory/KEY")
                                    << QStringLiteral("/api/directory/KEY");
        QTest::addRow("confirm kept") << QStringLiteral("http://h/api/dispatch?confirm=inv_abc")
                                      << QStringLiteral("/api/dispatch?confirm=inv_abc");
        QTest::addRow("key and format kept") << QStringLiteral("http://h/api/dispatch?key=K&format=markdown")
                                             << QStringLiteral("/api/dispatch?key=K&format=markdown");
        QTest::addRow("search hidden") << QStringLiteral("http://h/api/directory?q=secret&category=tools")
                                       << QStringLiteral("/api/directory?q=…&category=tools");
        QTest::addRow("unknown hidden")
            << QStringLiteral("http://h/x?token=cdt_abc") << QStringLiteral("/x?token=…");
    }
    void redactedTarget()
    {
        QFETCH(QString, url);
        QFETCH(QString, logged);
        QCOMPARE(AccessLog::redactedTarget(QUrl(url)), logged);
    }
};

QTEST_GUILESS_MAIN(TestAccessLog)
#include "tst_accesslog.moc"
