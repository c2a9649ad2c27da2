#include "dispatch/secrets/keychainstore.h"
#include "tests/support/processrun.h"
#include "tests/support/secretservicepause.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <QTestEventLoop>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <cstdio>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// Set in the child run of anApplicationEndingWhileAJobWaitsExitsCleanly.
const char *const kChildVariable = "CAPDESK_TST_KEYCHAIN_EXIT_CHILD";

// The GUI thread's loop as a user would feel it: the largest gap between heartbeats and the
// deepest event loop a beat ran in (a nested loop keeps timers firing while input waits).
class LoopWatch final
{
public:
    LoopWatch()
    {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            m_largestGapMs = qMax(m_largestGapMs, now - m_lastMs);
            m_lastMs = now;
            m_deepestLevel = qMax(m_deepestLevel, QThread::currentThread()->loopLevel());
        });
        m_clock.start();
        m_timer.start();
    }
    qint64 largestGapMs() const { return qMax(m_largestGapMs, m_clock.elapsed() - m_lastMs); }
    int deepestLevel() const { return m_deepestLevel; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastMs = 0;
    qint64 m_largestGapMs = 0;
    int m_deepestLevel = 0;
};

} // namespace

// KeychainStore against the session's real Secret Service (the dbus-run-session recipe of
// packaging/capdesk test): every job on the one keychain thread, the blocking calls from any
// thread without an event loop of their own, the asynchronous ones answered on their
// context's thread, and an application that ends while a job still waits.
class TestKeychainStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void asynchronousAnswers_data();
    void asynchronousAnswers();
    void aBlockingCallRunsNoEventLoop();
    void concurrentReadsFromThreadsAndTheMainThread();
    void answersArriveOnTheContextsThread();
    void aDestroyedContextIsNotAnswered();
    void aSlowKeychainLeavesTheLoopTurning();
    void anApplicationEndingWhileAJobWaitsExitsCleanly();

private:
    QString entryName(const QString &what) const { return u"CAPDESK_TST_KCS_"_s + what + u'_' + m_suffix; }

    KeychainStore m_keychain;
    QString m_suffix;
    QStringList m_written;
};

void TestKeychainStore::initTestCase()
{
    // Names unique to this run, so an entry left by an earlier run cannot answer.
    m_suffix = QString::number(QRandomGenerator::global()->generate(), 16).toUpper();
    if (qEnvironmentVariableIsSet(kChildVariable))
        return;
    QString why;
    if (!m_keychain.available(&why))
        QSKIP(qPrintable(u"needs a Secret Service: "_s + why));
}

void TestKeychainStore::cleanupTestCase()
{
    for (const QString &name : std::as_const(m_written))
        m_keychain.remove(name);
}

void TestKeychainStore::asynchronousAnswers_data()
{
    QTest::addColumn<QVariant>("stored"); // invalid: no entry before the operation
    QTest::addColumn<QString>("operation");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("readStatus"); // what a read answers (after the operation)
    QTest::addColumn<QString>("readValue");

    const int found = int(KeychainStore::Read::Status::Found);
    const int notFound = int(KeychainStore::Read::Status::NotFound);
    QTest::addRow("read of a missing entry") << QVariant() << u"read"_s << true << notFound << QString();
    QTest::addRow("read of a stored entry")
        << QVariant(u"stored välue"_s) << u"read"_s << true << found << u"stored välue"_s;
    QTest::addRow("set a new entry") << QVariant() << u"set"_s << true << found << u"new:value"_s;
    QTest::addRow("set replaces an entry")
        << QVariant(u"old"_s) << u"set"_s << true << found << u"new:value"_s;
    QTest::addRow("remove an entry") << QVariant(u"gone"_s) << u"remove"_s << true << notFound << QString();
    QTest::addRow("remove of a missing entry is done")
        << QVariant() << u"remove"_s << true << notFound << QString();
    QTest::addRow("available") << QVariant() << u"available"_s << true << notFound << QString();
}

void TestKeychainStore::asynchronousAnswers()
{
    QFETCH(QVariant, stored);
    QFETCH(QString, operation);
    const QString name = entryName(u"ASYNC"_s);
    m_written << name;
    QVERIFY(m_keychain.remove(name));
    if (stored.isValid())
        QVERIFY(m_keychain.set(name, stored.toString()));

    std::optional<bool> ok;
    std::optional<KeychainStore::Read> read;
    QObject context;
    auto outcome = [&](const KeychainStore::Outcome &answer) { ok = answer.ok; };
    if (operation == u"read"_s)
        m_keychain.readAsync(name, &context, [&](const KeychainStore::Read &answer) {
            read = answer;
            ok = answer.status != KeychainStore::Read::Status::Unavailable;
        });
    else if (operation == u"set"_s)
        m_keychain.setAsync(name, u"new:value"_s, &context, outcome);
    else if (operation == u"remove"_s)
        m_keychain.removeAsync(name, &context, outcome);
    else
        m_keychain.availableAsync(&context, outcome);
    QVERIFY2(!ok, "an asynchronous call must not answer before it returns");
    QTRY_VERIFY(ok.has_value());
    QTEST(*ok, "ok");

    const KeychainStore::Read after = read ? *read : m_keychain.read(name);
    QTEST(int(after.status), "readStatus");
    QTEST(after.value, "readValue");
}

void TestKeychainStore::aBlockingCallRunsNoEventLoop()
{
    // A nested event loop would run this timer while the caller is inside read().
    bool timerRan = false;
    QTimer::singleShot(0, this, [&] { timerRan = true; });
    const KeychainStore::Read entry = m_keychain.read(entryName(u"NESTED"_s));
    QCOMPARE(entry.status, KeychainStore::Read::Status::NotFound);
    QVERIFY2(!timerRan, "the blocking read ran an event loop of its own");
    QTRY_VERIFY(timerRan);
}

void TestKeychainStore::concurrentReadsFromThreadsAndTheMainThread()
{
    constexpr int kThreads = 4;
    constexpr int kRounds = 15;
    QStringList names;
    for (int i = 0; i < kThreads; ++i) {
        names << entryName(u"CONCURRENT%1"_s.arg(i));
        m_written << names.last();
        QVERIFY(m_keychain.set(names.last(), u"value %1"_s.arg(i)));
    }

    QList<int> wrongInThread(kThreads, 0);
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < kThreads; ++i) {
        workers.emplace_back(QThread::create([&, i] {
            for (int round = 0; round < kRounds; ++round) {
                if (KeychainStore().read(names.at(i)).value != u"value %1"_s.arg(i))
                    ++wrongInThread[i];
            }
        }));
        workers.back()->start();
    }
    // The main thread asks asynchronously at the same time, keeping its loop turning.
    int answered = 0;
    int wrongHere = 0;
    QThread *const mainThread = QThread::currentThread();
    for (int round = 0; round < kRounds; ++round) {
        for (int i = 0; i < kThreads; ++i)
            m_keychain.readAsync(names.at(i), this, [&, i](const KeychainStore::Read &entry) {
                if (entry.value != u"value %1"_s.arg(i) || QThread::currentThread() != mainThread)
                    ++wrongHere;
                ++answered;
            });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, kThreads * kRounds, 30000);
    for (const std::unique_ptr<QThread> &worker : workers)
        QVERIFY(worker->wait(30000));
    QCOMPARE(wrongHere, 0);
    QCOMPARE(wrongInThread, QList<int>(kThreads, 0));
}

void TestKeychainStore::answersArriveOnTheContextsThread()
{
    QThread worker;
    worker.start();
    QObject context;
    context.moveToThread(&worker);
    std::atomic<QThread *> answeredOn{nullptr};
    QMetaObject::invokeMethod(&context, [&] {
        m_keychain.readAsync(entryName(u"ELSEWHERE"_s), &context,
                             [&](const KeychainStore::Read &) { answeredOn = QThread::currentThread(); });
    });
    QTRY_VERIFY(answeredOn.load() != nullptr);
    QCOMPARE(answeredOn.load(), &worker);
    QMetaObject::invokeMethod(
        &context, [&] { context.moveToThread(QCoreApplication::instance()->thread()); },
        Qt::BlockingQueuedConnection);
    worker.quit();
    QVERIFY(worker.wait(5000));
}

void TestKeychainStore::aDestroyedContextIsNotAnswered()
{
    bool answeredTheDestroyed = false;
    auto context = std::make_unique<QObject>();
    m_keychain.readAsync(entryName(u"DESTROYED"_s), context.get(),
                         [&](const KeychainStore::Read &) { answeredTheDestroyed = true; });
    context.reset();
    // Jobs are answered in order: once the later one is, the earlier one was too.
    bool answeredTheLater = false;
    m_keychain.readAsync(entryName(u"LATER"_s), this,
                         [&](const KeychainStore::Read &) { answeredTheLater = true; });
    QTRY_VERIFY(answeredTheLater);
    QVERIFY(!answeredTheDestroyed);
}

void TestKeychainStore::aSlowKeychainLeavesTheLoopTurning()
{
    constexpr int kPauseMs = 600;
    SecretServicePause pause;
    QString why;
    QVERIFY2(pause.pauseFor(kPauseMs, &why), qPrintable(why));
    QElapsedTimer took;
    took.start();
    std::optional<KeychainStore::Read> entry;
    // The loop an application would be running (loop level 1) while the keychain is slow.
    QTestEventLoop loop;
    m_keychain.readAsync(entryName(u"SLOW"_s), this, [&](const KeychainStore::Read &answer) {
        entry = answer;
        loop.exitLoop();
    });
    LoopWatch watch;
    loop.enterLoopMSecs(10000);
    QVERIFY(entry.has_value());
    QCOMPARE(entry->status, KeychainStore::Read::Status::NotFound);
    // The answer waited for the daemon, and the loop kept turning meanwhile.
    QVERIFY2(took.elapsed() >= kPauseMs / 2, qPrintable(u"answered after %1 ms"_s.arg(took.elapsed())));
    QCOMPARE(watch.deepestLevel(), 1);
    QVERIFY2(watch.largestGapMs() <= 100, qPrintable(u"largest gap %1 ms"_s.arg(watch.largestGapMs())));
    QVERIFY(pause.waitUntilResumed(5000));
}

void TestKeychainStore::anApplicationEndingWhileAJobWaitsExitsCleanly()
{
    const QString name = entryName(u"AT_EXIT"_s);
    if (qEnvironmentVariableIsSet(kChildVariable)) {
        // The daemon is paused: both jobs wait when this function returns and the test's
        // application is destroyed.
        m_keychain.readAsync(name, this, [](const KeychainStore::Read &) { std::puts("async answered"); });
        QThreadPool::globalInstance()->start([name] {
            const KeychainStore::Read entry = KeychainStore().read(name);
            std::printf("worker answered: %s\n", qPrintable(entry.error));
            std::fflush(stdout);
        });
        return;
    }
    constexpr int kPauseMs = 6000;
    SecretServicePause pause;
    QString why;
    QVERIFY2(pause.pauseFor(kPauseMs, &why), qPrintable(why));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(kChildVariable), u"1"_s);
    // The child ends with both jobs still waiting, on purpose: what they hold is never
    // freed, and under the ASan build LeakSanitizer would report it as the exit code this
    // test reads. The test is about ending at all, and cleanly.
    environment.insert(u"LSAN_OPTIONS"_s, environment.value(u"LSAN_OPTIONS"_s) + u":detect_leaks=0"_s);
    QElapsedTimer took;
    took.start();
    const ProcessRun::Result child =
        ProcessRun::run(QCoreApplication::applicationFilePath(),
                        {QString::fromLatin1(QTest::currentTestFunction())}, {}, environment, 20000);
    const qint64 tookMs = took.elapsed();
    QVERIFY2(child.finished, "the application hung at exit");
    QVERIFY2(child.exitCode == 0, child.out.constData());
    QVERIFY2(
        child.out.contains("PASS   : TestKeychainStore::anApplicationEndingWhileAJobWaitsExitsCleanly()"),
        child.out.constData());
    // It ended while the daemon was still paused, without an answer for either job but
    // with the blocked worker released.
    QVERIFY2(tookMs < kPauseMs - 1000, qPrintable(u"exit took %1 ms"_s.arg(tookMs)));
    QVERIFY2(!child.out.contains("async answered"), child.out.constData());
    QVERIFY2(
        child.out.contains("worker answered: no Secret Service is reachable (the application is closing)"),
        child.out.constData());
    QVERIFY(pause.waitUntilResumed(kPauseMs + 5000));
}

QTEST_GUILESS_MAIN(TestKeychainStore)
#include "tst_keychainstore.moc"
