#include "server/ownerkey.h"

#include <QTest>

class TestOwnerKey : public QObject
{
    Q_OBJECT

private slots:
    void matches_data()
    {
        QTest::addColumn<QByteArray>("presented");
        QTest::addColumn<bool>("matches");
        QTest::addRow("exact") << QByteArray("owner-key-0123456789") << true;
        QTest::addRow("empty") << QByteArray() << false;
        QTest::addRow("prefix") << QByteArray("owner-key-012345678") << false;
        QTest::addRow("longer") << QByteArray("owner-key-0123456789x") << false;
        QTest::addRow("case") << QByteArray("OWNER-key-0123456789") << false;
    }
    void matches()
    {
        QFETCH(QByteArray, presented);
        QFETCH(bool, matches);
        QCOMPARE(OwnerKey(QByteArrayLiteral("owner-key-0123456789")).matches(presented), matches);
    }
    void emptyKeyMatchesNothing() { QVERIFY(!OwnerKey(QByteArray()).matches(QByteArray())); }
    void generatedKeysAreStrongAndDistinct()
    {
        const QByteArray one = OwnerKey::generate();
        const QByteArray two = OwnerKey::generate();
        QVERIFY(one.startsWith("cdk_"));
        QCOMPARE(one.size(), 4 + 43); // 32 bytes of URL-safe base64 without padding
        QVERIFY(one != two);
        QVERIFY(OwnerKey(one).matches(one));
    }
};

QTEST_GUILESS_MAIN(TestOwnerKey)
#include "tst_ownerkey.moc"
