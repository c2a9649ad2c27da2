#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/secretinventory.h"

#include <QTest>

using namespace Qt::StringLiterals;

// SecretInventory: auth texts read exactly as the request builder reads them (SPEC §3
// Auth), grouped per secret name, with the origin of each name checked without keeping a
// value. The keychain case needs a Secret Service (packaging/capdesk test provides one).
class TestSecretInventory : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void groupsByNameAndCountsMalformed();
    void environmentPresence();
    void keychainPresence();
    void noKeychainMeansUnavailable();
};

void TestSecretInventory::parse_data()
{
    QTest::addColumn<QString>("auth");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("form");
    QTest::addColumn<QString>("name");

    QTest::addRow("bearer") << u"bearer:GROK_API_KEY"_s << true << u"bearer"_s << u"GROK_API_KEY"_s;
    QTest::addRow("basic") << u"basic:JIRA_LOGIN"_s << true << u"basic"_s << u"JIRA_LOGIN"_s;
    QTest::addRow("query, default parameter")
        << u"query:MAPS_KEY"_s << true << u"query:key"_s << u"MAPS_KEY"_s;
    QTest::addRow("query, own parameter") << u"query:api_key=OWM"_s << true << u"query:api_key"_s << u"OWM"_s;
    QTest::addRow("surrounding blanks") << u"  bearer:A  "_s << true << u"bearer"_s << u"A"_s;
    QTest::addRow("underscore first") << u"bearer:_X1"_s << true << u"bearer"_s << u"_X1"_s;
    QTest::addRow("unknown prefix") << u"token:A"_s << false << QString() << QString();
    QTest::addRow("prefix is case-sensitive") << u"Bearer:A"_s << false << QString() << QString();
    QTest::addRow("no colon") << u"GROK_API_KEY"_s << false << QString() << QString();
    QTest::addRow("empty name") << u"bearer:"_s << false << QString() << QString();
    QTest::addRow("name with a dash (a pasted key?)")
        << u"bearer:sk-live-123"_s << false << QString() << QString();
    QTest::addRow("name starting with a digit") << u"basic:1A"_s << false << QString() << QString();
    QTest::addRow("query, empty parameter") << u"query:=A"_s << false << QString() << QString();
    QTest::addRow("query, bad parameter") << u"query:a b=A"_s << false << QString() << QString();
    QTest::addRow("query, empty name") << u"query:p="_s << false << QString() << QString();
    QTest::addRow("bearer with = is not a parameter") << u"bearer:p=A"_s << false << QString() << QString();
}

void TestSecretInventory::parse()
{
    QFETCH(QString, auth);
    QFETCH(bool, valid);
    QFETCH(QString, form);
    QFETCH(QString, name);
    const std::optional<SecretInventory::Reference> reference = SecretInventory::parse(auth);
    QCOMPARE(reference.has_value(), valid);
    if (reference) {
        QCOMPARE(reference->form, form);
        QCOMPARE(reference->name, name);
    }
}

void TestSecretInventory::groupsByNameAndCountsMalformed()
{
    const SecretInventory inventory = SecretInventory::fromUsage({
        {u"query:MAPS"_s, 1},
        {u"bearer:GROK"_s, 5},
        {u"bearer:GROK "_s, 2},
        {u"query:api_key=GROK"_s, 1},
        {u"basic:JIRA"_s, 3},
        {u"bearer:sk-live-123"_s, 4},
        {u"nonsense"_s, 1},
    });
    const QList<SecretInventory::Secret> &secrets = inventory.secrets();
    QCOMPARE(secrets.size(), 3);
    QCOMPARE(secrets[0].name, u"GROK"_s);
    QCOMPARE(secrets[0].rows, 8);
    QCOMPARE(secrets[0].forms, (QStringList{u"bearer"_s, u"query:api_key"_s}));
    QCOMPARE(secrets[1].name, u"JIRA"_s);
    QCOMPARE(secrets[1].rows, 3);
    QCOMPARE(secrets[1].forms, QStringList{u"basic"_s});
    QCOMPARE(secrets[2].name, u"MAPS"_s);
    QCOMPARE(secrets[2].forms, QStringList{u"query:key"_s});
    QCOMPARE(inventory.malformedRows(), 5);
}

void TestSecretInventory::environmentPresence()
{
    qputenv("CAPDESK_TST_INV_SET", "value");
    qputenv("CAPDESK_TST_INV_EMPTY", "");
    qunsetenv("CAPDESK_TST_INV_UNSET");
    SecretInventory inventory = SecretInventory::fromUsage({{u"bearer:CAPDESK_TST_INV_SET"_s, 1},
                                                            {u"bearer:CAPDESK_TST_INV_EMPTY"_s, 1},
                                                            {u"bearer:CAPDESK_TST_INV_UNSET"_s, 1}});
    inventory.checkOrigins(nullptr);
    QCOMPARE(inventory.secrets().size(), 3);
    QCOMPARE(inventory.secrets()[0].name, u"CAPDESK_TST_INV_EMPTY"_s);
    QCOMPARE(inventory.secrets()[0].inEnvironment, false); // empty counts as unset
    QCOMPARE(inventory.secrets()[1].inEnvironment, true);
    QCOMPARE(inventory.secrets()[2].inEnvironment, false);
    qunsetenv("CAPDESK_TST_INV_SET");
    qunsetenv("CAPDESK_TST_INV_EMPTY");
}

void TestSecretInventory::keychainPresence()
{
    KeychainStore keychain;
    QString why;
    if (!keychain.available(&why))
        QSKIP(qPrintable(u"needs a Secret Service: "_s + why));
    const QString present = u"CAPDESK_TST_INV_IN_KEYCHAIN"_s;
    const QString absent = u"CAPDESK_TST_INV_NOT_IN_KEYCHAIN"_s;
    QVERIFY2(keychain.set(present, u"value"_s, &why), qPrintable(why));
    QVERIFY(keychain.remove(absent));
    SecretInventory inventory =
        SecretInventory::fromUsage({{u"bearer:"_s + present, 2}, {u"basic:"_s + absent, 1}});
    inventory.checkOrigins(&keychain);
    QVERIFY(keychain.remove(present));
    QCOMPARE(inventory.secrets()[0].name, present);
    QCOMPARE(inventory.secrets()[0].keychain, SecretInventory::KeychainState::Present);
    QCOMPARE(inventory.secrets()[1].keychain, SecretInventory::KeychainState::Absent);
}

void TestSecretInventory::noKeychainMeansUnavailable()
{
    SecretInventory inventory = SecretInventory::fromUsage({{u"bearer:A"_s, 1}});
    inventory.checkOrigins(nullptr);
    QCOMPARE(inventory.secrets()[0].keychain, SecretInventory::KeychainState::Unavailable);
}

QTEST_GUILESS_MAIN(TestSecretInventory)
#include "tst_secretinventory.moc"
