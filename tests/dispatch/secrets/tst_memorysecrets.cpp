#include "dispatch/secrets/memorysecrets.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

// MemorySecrets: the values set while no keychain answers, for this process only. What a
// lookup answers after each sequence of writes, its asynchronous form, and readers on
// worker threads while the GUI thread writes (the TSan pass runs this test).
class TestMemorySecrets : public QObject
{
    Q_OBJECT

private slots:
    void lookupAfterWrites_data();
    void lookupAfterWrites();
    void removeSaysWhetherThereWasAValue();
    void lookupAsyncAnswersLater();
    void aLookupIsACopyOfItsOwn();
    void readersOnWorkersWhileTheOwnerWrites();
};

// One write: set NAME to VALUE, or remove NAME (VALUE null).
struct Write
{
    QString name;
    std::optional<QString> value;
};
Q_DECLARE_METATYPE(QList<Write>)

void TestMemorySecrets::lookupAfterWrites_data()
{
    QTest::addColumn<QList<Write>>("writes");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("origin");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("empty");

    const int memory = int(SecretSource::Origin::Memory);
    const int missing = int(SecretSource::Origin::Missing);
    QTest::addRow("nothing set: missing") << QList<Write>{} << u"API"_s << missing << QString() << true;
    QTest::addRow("set, then found") << QList<Write>{{u"API"_s, u"v1"_s}} << u"API"_s << memory << u"v1"_s
                                     << false;
    QTest::addRow("another name: missing")
        << QList<Write>{{u"API"_s, u"v1"_s}} << u"OTHER"_s << missing << QString() << false;
    QTest::addRow("names are case-sensitive, like environment variables")
        << QList<Write>{{u"API"_s, u"v1"_s}} << u"api"_s << missing << QString() << false;
    QTest::addRow("the last set wins") << QList<Write>{{u"API"_s, u"v1"_s}, {u"API"_s, u"v2 länger:x"_s}}
                                       << u"API"_s << memory << u"v2 länger:x"_s << false;
    QTest::addRow("removed: missing") << QList<Write>{{u"API"_s, u"v1"_s}, {u"API"_s, std::nullopt}}
                                      << u"API"_s << missing << QString() << true;
    QTest::addRow("set again after a remove")
        << QList<Write>{{u"API"_s, u"v1"_s}, {u"API"_s, std::nullopt}, {u"API"_s, u"v3"_s}} << u"API"_s
        << memory << u"v3"_s << false;
    QTest::addRow("an empty value removes the name")
        << QList<Write>{{u"API"_s, u"v1"_s}, {u"API"_s, QString()}} << u"API"_s << missing << QString()
        << true;
    QTest::addRow("removing one name keeps the others")
        << QList<Write>{{u"A"_s, u"a"_s}, {u"B"_s, u"b"_s}, {u"A"_s, std::nullopt}} << u"B"_s << memory
        << u"b"_s << false;
}

void TestMemorySecrets::lookupAfterWrites()
{
    QFETCH(QList<Write>, writes);
    QFETCH(QString, name);
    QFETCH(bool, empty);
    MemorySecrets secrets;
    for (const Write &write : writes) {
        if (write.value)
            secrets.set(write.name, *write.value);
        else
            secrets.remove(write.name);
    }
    const SecretSource::Lookup found = secrets.lookup(name);
    QTEST(int(found.origin), "origin");
    QTEST(found.value, "value");
    QCOMPARE(secrets.has(name), found.origin == SecretSource::Origin::Memory);
    QCOMPARE(secrets.isEmpty(), empty);
}

void TestMemorySecrets::removeSaysWhetherThereWasAValue()
{
    MemorySecrets secrets;
    QVERIFY(!secrets.remove(u"API"_s));
    secrets.set(u"API"_s, u"v"_s);
    QVERIFY(secrets.remove(u"API"_s));
    QVERIFY(!secrets.remove(u"API"_s));
}

void TestMemorySecrets::lookupAsyncAnswersLater()
{
    MemorySecrets secrets;
    secrets.set(u"API"_s, u"async-value"_s);
    std::optional<SecretSource::Lookup> found;
    QObject context;
    secrets.lookupAsync(u"API"_s, &context, [&](const SecretSource::Lookup &answer) { found = answer; });
    QVERIFY2(!found, "an asynchronous lookup must not answer before it returns");
    QTRY_VERIFY(found);
    QCOMPARE(found->origin, SecretSource::Origin::Memory);
    QCOMPARE(found->value, u"async-value"_s);
}

void TestMemorySecrets::aLookupIsACopyOfItsOwn()
{
    MemorySecrets secrets;
    QString typed = u"typed-value"_s;
    secrets.set(u"API"_s, typed);
    // The caller wiping what it typed (as the Secrets dialog does) leaves the kept value.
    typed.fill(u'\0');
    SecretSource::Lookup first = secrets.lookup(u"API"_s);
    QCOMPARE(first.value, u"typed-value"_s);
    // And a caller's copy outlives a replace and a remove, each wiping the kept one.
    secrets.set(u"API"_s, u"replaced"_s);
    QCOMPARE(first.value, u"typed-value"_s);
    const SecretSource::Lookup second = secrets.lookup(u"API"_s);
    secrets.remove(u"API"_s);
    QCOMPARE(second.value, u"replaced"_s);
}

void TestMemorySecrets::readersOnWorkersWhileTheOwnerWrites()
{
    MemorySecrets secrets;
    secrets.set(u"STEADY"_s, u"steady-value"_s);
    std::atomic<bool> stop{false};
    std::atomic<int> wrong{0};
    std::atomic<int> reads{0};
    QList<std::shared_ptr<QThread>> readers;
    for (int i = 0; i < 3; ++i) {
        readers.append(std::shared_ptr<QThread>(QThread::create([&] {
            while (!stop.load()) {
                if (secrets.lookup(u"STEADY"_s).value != u"steady-value"_s)
                    ++wrong;
                const SecretSource::Lookup flipping = secrets.lookup(u"FLIPPING"_s);
                if (flipping.origin == SecretSource::Origin::Memory && !flipping.value.startsWith(u"v-"_s))
                    ++wrong;
                ++reads;
            }
        })));
        readers.last()->start();
    }
    // Writes go on until the readers have read a good many times among them.
    QElapsedTimer running;
    running.start();
    for (int i = 0; reads.load() < 20000 && running.elapsed() < 10000; ++i) {
        secrets.set(u"FLIPPING"_s, u"v-"_s + QString::number(i));
        if (i % 3 == 0)
            secrets.remove(u"FLIPPING"_s);
    }
    QVERIFY(reads.load() >= 20000);
    stop = true;
    for (const std::shared_ptr<QThread> &reader : std::as_const(readers))
        QVERIFY(reader->wait(10000));
    QCOMPARE(wrong.load(), 0);
}

QTEST_GUILESS_MAIN(TestMemorySecrets)
#include "tst_memorysecrets.moc"
