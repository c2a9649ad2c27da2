#include "dispatch/secrets/environmentkeychainsecrets.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/memorysecrets.h"

#include <QTest>
#include <QThread>

#include <memory>

using namespace Qt::StringLiterals;

// SPEC §3 Auth lookups: the environment first, then the values kept in memory for want of a
// keychain (the app's), then the OS keychain (service "capdesk", account NAME), Missing
// otherwise. The keychain rows need a Secret Service: CI runs
// ctest under dbus-run-session with an unlocked gnome-keyring (packaging/capdesk test);
// without one they are skipped with the keychain's own reason, the environment rows run.
class TestEnvironmentKeychainSecrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lookup_data();
    void lookup();
    void lookupAsync_data();
    void lookupAsync();
    void lookupFromWorkerThread();
    void memorySetAfterwardsIsSeenByTheNextLookup();
    void keychainStoreRoundTrip();
    void availabilityIsExplained();
    void cleanupTestCase();

private:
    KeychainStore m_keychain;
    bool m_available = false;
    QString m_why;
    QStringList m_written;
};

void TestEnvironmentKeychainSecrets::initTestCase()
{
    m_available = m_keychain.available(&m_why);
    if (!m_available)
        qWarning("keychain rows will be skipped: %s", qPrintable(m_why));
}

void TestEnvironmentKeychainSecrets::lookup_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QVariant>("environment"); // invalid: unset
    QTest::addColumn<QVariant>("keychain"); // invalid: no entry
    QTest::addColumn<QVariant>("memory"); // invalid: none kept
    QTest::addColumn<int>("origin");
    QTest::addColumn<QString>("value");

    const int env = int(SecretSource::Origin::Environment);
    const int keychain = int(SecretSource::Origin::Keychain);
    const int missing = int(SecretSource::Origin::Missing);
    const int memory = int(SecretSource::Origin::Memory);
    QTest::addRow("environment only") << u"CAPDESK_TST_ENV_ONLY"_s << QVariant(u"from-env"_s) << QVariant()
                                      << QVariant() << env << u"from-env"_s;
    QTest::addRow("neither: missing")
        << u"CAPDESK_TST_NOWHERE"_s << QVariant() << QVariant() << QVariant() << missing << QString();
    QTest::addRow("empty environment value, no entry: missing")
        << u"CAPDESK_TST_EMPTY_ENV"_s << QVariant(QString()) << QVariant() << QVariant() << missing
        << QString();
    QTest::addRow("environment wins over keychain")
        << u"CAPDESK_TST_BOTH"_s << QVariant(u"env-value"_s) << QVariant(u"keychain-value"_s) << QVariant()
        << env << u"env-value"_s;
    QTest::addRow("keychain when the environment has none")
        << u"CAPDESK_TST_KEYCHAIN_ONLY"_s << QVariant() << QVariant(u"kc välue:with:colons"_s) << QVariant()
        << keychain << u"kc välue:with:colons"_s;
    QTest::addRow("empty environment value falls through to the keychain")
        << u"CAPDESK_TST_EMPTY_THEN_KC"_s << QVariant(QString()) << QVariant(u"kc"_s) << QVariant()
        << keychain << u"kc"_s;
    QTest::addRow("memory when the environment has none")
        << u"CAPDESK_TST_MEMORY_ONLY"_s << QVariant() << QVariant() << QVariant(u"mem:value"_s) << memory
        << u"mem:value"_s;
    QTest::addRow("environment wins over memory")
        << u"CAPDESK_TST_ENV_MEMORY"_s << QVariant(u"env-value"_s) << QVariant() << QVariant(u"mem"_s) << env
        << u"env-value"_s;
    QTest::addRow("empty environment value falls through to memory")
        << u"CAPDESK_TST_EMPTY_THEN_MEMORY"_s << QVariant(QString()) << QVariant() << QVariant(u"mem"_s)
        << memory << u"mem"_s;
    QTest::addRow("memory wins over keychain")
        << u"CAPDESK_TST_MEMORY_KC"_s << QVariant() << QVariant(u"keychain-value"_s)
        << QVariant(u"mem-value"_s) << memory << u"mem-value"_s;
}

void TestEnvironmentKeychainSecrets::lookup()
{
    QFETCH(QString, name);
    QFETCH(QVariant, environment);
    QFETCH(QVariant, keychain);
    QFETCH(QVariant, memory);
    const QByteArray variable = name.toLocal8Bit();
    if (keychain.isValid()) {
        if (!m_available)
            QSKIP(qPrintable(m_why));
        QString why;
        QVERIFY2(m_keychain.set(name, keychain.toString(), &why), qPrintable(why));
        m_written << name;
    }
    if (environment.isValid())
        qputenv(variable.constData(), environment.toString().toUtf8());
    else
        qunsetenv(variable.constData());

    auto kept = std::make_shared<MemorySecrets>();
    if (memory.isValid())
        kept->set(name, memory.toString());
    const EnvironmentKeychainSecrets secrets(m_keychain, kept);
    const SecretSource::Lookup found = secrets.lookup(name);
    qunsetenv(variable.constData());
    QTEST(int(found.origin), "origin");
    QTEST(found.value, "value");
}

void TestEnvironmentKeychainSecrets::lookupAsync_data()
{
    lookup_data();
}

void TestEnvironmentKeychainSecrets::lookupAsync()
{
    QFETCH(QString, name);
    QFETCH(QVariant, environment);
    QFETCH(QVariant, keychain);
    QFETCH(QVariant, memory);
    const QByteArray variable = name.toLocal8Bit();
    if (keychain.isValid()) {
        if (!m_available)
            QSKIP(qPrintable(m_why));
        QString why;
        QVERIFY2(m_keychain.set(name, keychain.toString(), &why), qPrintable(why));
        m_written << name;
    }
    if (environment.isValid())
        qputenv(variable.constData(), environment.toString().toUtf8());
    else
        qunsetenv(variable.constData());

    auto kept = std::make_shared<MemorySecrets>();
    if (memory.isValid())
        kept->set(name, memory.toString());
    const EnvironmentKeychainSecrets secrets(m_keychain, kept);
    std::optional<SecretSource::Lookup> found;
    QObject context;
    secrets.lookupAsync(name, &context, [&](const SecretSource::Lookup &answer) { found = answer; });
    qunsetenv(variable.constData());
    QVERIFY2(!found, "an asynchronous lookup must not answer before it returns");
    QTRY_VERIFY(found);
    QTEST(int(found->origin), "origin");
    QTEST(found->value, "value");
}

void TestEnvironmentKeychainSecrets::lookupFromWorkerThread()
{
    if (!m_available)
        QSKIP(qPrintable(m_why));
    const QString name = u"CAPDESK_TST_FROM_WORKER"_s;
    QVERIFY(m_keychain.set(name, u"worker-value"_s));
    m_written << name;
    const EnvironmentKeychainSecrets secrets(m_keychain);

    // Runners look secrets up off the main thread; the main thread keeps its event loop
    // turning meanwhile, as the GUI does.
    SecretSource::Lookup found;
    std::unique_ptr<QThread> worker(QThread::create([&] { found = secrets.lookup(name); }));
    worker->start();
    QVERIFY(QTest::qWaitFor([&] { return worker->isFinished(); }, 20000));
    QCOMPARE(found.origin, SecretSource::Origin::Keychain);
    QCOMPARE(found.value, u"worker-value"_s);
}

void TestEnvironmentKeychainSecrets::memorySetAfterwardsIsSeenByTheNextLookup()
{
    // The app's memory is shared with every dispatcher built before a value was set in it.
    const QString name = u"CAPDESK_TST_MEMORY_LATER"_s;
    qunsetenv(name.toLocal8Bit().constData());
    auto kept = std::make_shared<MemorySecrets>();
    const EnvironmentKeychainSecrets secrets(m_keychain, kept);
    kept->set(name, u"set-later"_s);

    SecretSource::Lookup found;
    std::unique_ptr<QThread> worker(QThread::create([&] { found = secrets.lookup(name); }));
    worker->start();
    QVERIFY(QTest::qWaitFor([&] { return worker->isFinished(); }, 20000));
    QCOMPARE(found.origin, SecretSource::Origin::Memory);
    QCOMPARE(found.value, u"set-later"_s);

    kept->remove(name);
    QVERIFY(secrets.lookup(name).origin != SecretSource::Origin::Memory);
}

void TestEnvironmentKeychainSecrets::keychainStoreRoundTrip()
{
    if (!m_available)
        QSKIP(qPrintable(m_why));
    const QString name = u"CAPDESK_TST_ROUND_TRIP"_s;
    QString why;
    QVERIFY(!m_keychain.has(name, &why));
    QVERIFY(m_keychain.set(name, u"one"_s, &why));
    QVERIFY(m_keychain.has(name));
    QVERIFY(m_keychain.set(name, u"two"_s));
    QCOMPARE(m_keychain.read(name).value, u"two"_s);
    QVERIFY(m_keychain.remove(name, &why));
    QCOMPARE(m_keychain.read(name).status, KeychainStore::Read::Status::NotFound);
    QVERIFY2(m_keychain.remove(name, &why), "removing an absent entry is not an error");
}

void TestEnvironmentKeychainSecrets::availabilityIsExplained()
{
    QString why;
    if (m_keychain.available(&why)) {
        QVERIFY(why.isEmpty());
    } else {
        QVERIFY2(why.startsWith(u"no Secret Service is reachable ("_s), qPrintable(why));
        QVERIFY(why.endsWith(u"secrets come from the environment only"_s));
        const KeychainStore::Read entry = m_keychain.read(u"ANY_NAME"_s);
        QCOMPARE(entry.status, KeychainStore::Read::Status::Unavailable);
        QCOMPARE(entry.error, why);
    }
}

void TestEnvironmentKeychainSecrets::cleanupTestCase()
{
    for (const QString &name : std::as_const(m_written))
        m_keychain.remove(name);
}

QTEST_GUILESS_MAIN(TestEnvironmentKeychainSecrets)
#include "tst_environmentkeychainsecrets.moc"
