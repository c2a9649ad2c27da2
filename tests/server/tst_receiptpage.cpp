#include "server/receiptpage.h"

#include <QTest>

class TestReceiptPage : public QObject
{
    Q_OBJECT

private slots:
    void escapesEverything()
    {
        const QJsonObject confirm{
            {QStringLiteral("confirmed"), true},
            {QStringLiteral("status"), QStringLiteral("PROVEN_MATERIAL_RESULT")},
            {QStringLiteral("invocation_id"), QStringLiteral("inv_<b>x</b>")},
            {QStringLiteral("receipt"),
             QJsonObject{{QStringLiteral("actor"), QStringLiteral("<script>alert(1)</script>")},
                         {QStringLiteral("key"), QStringLiteral("A&B\"")}}}};
        const QByteArray html = ReceiptPage::render(confirm);
        QVERIFY(!html.contains("<script>"));
        QVERIFY(!html.contains("<b>x</b>"));
        QVERIFY(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        QVERIFY(html.contains("A&amp;B&quot;"));
        QVERIFY(html.contains("Confirmed"));
    }
    void unknownInvocation()
    {
        const QByteArray html =
            ReceiptPage::render({{QStringLiteral("confirmed"), false},
                                 {QStringLiteral("status"), QStringLiteral("UNKNOWN_INVOCATION")},
                                 {QStringLiteral("invocation_id"), QStringLiteral("inv_zzzzzzzzzz")}});
        QVERIFY(html.contains("Not confirmed"));
        QVERIFY(html.contains("UNKNOWN_INVOCATION"));
    }
};

QTEST_GUILESS_MAIN(TestReceiptPage)
#include "tst_receiptpage.moc"
