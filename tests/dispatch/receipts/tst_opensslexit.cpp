#include "dispatch/receipts/opensslexit.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTest>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>

// A process of its own (this program run with kExitChild), because what is checked is how
// a process ends: a detached thread that used OpenSSL still runs its own destructors while
// the main thread runs the exit handlers, as a QThread's may. The crash this prevents
// needs OpenSSL's exit handler to free that thread's state within a few instructions of
// the thread freeing it too, which no test can time; what is certain is the cause, so the
// child checks that OpenSSL is still up after every exit handler, and that the thread
// ends during exit without harm.
constexpr char kExitChild[] = "--exit-while-a-thread-ends";

namespace {

using namespace std::chrono_literals;

constexpr int kCleanedUpAtExit = 6;
constexpr int kThreadStillRunning = 7;

std::mutex g_mutex;
std::condition_variable g_changed;
bool g_exitHandlersRan = false;
bool g_threadEnded = false;

// Registered before OpenSSL starts, so it runs after any handler OpenSSL registers. After
// OpenSSL's own cleanup it could not start again.
void holdExitUntilTheThreadEnds()
{
    std::unique_lock lock(g_mutex);
    if (OPENSSL_init_crypto(0, nullptr) != 1)
        std::_Exit(kCleanedUpAtExit);
    g_exitHandlersRan = true;
    g_changed.notify_all();
    if (!g_changed.wait_for(lock, 20s, [] { return g_threadEnded; }))
        std::_Exit(kThreadStillRunning);
}

// A C++ thread_local is destroyed before the thread's pthread keys, OpenSSL's among them.
struct WaitForTheExitHandlers
{
    WaitForTheExitHandlers() = default;
    WaitForTheExitHandlers(const WaitForTheExitHandlers &) = delete;
    WaitForTheExitHandlers &operator=(const WaitForTheExitHandlers &) = delete;
    ~WaitForTheExitHandlers()
    {
        std::unique_lock lock(g_mutex);
        g_changed.wait_for(lock, 20s, [] { return g_exitHandlersRan; });
    }
};

// A key made after OpenSSL's: its destructor runs after OpenSSL's own.
void markTheThreadEnded(void *)
{
    const std::lock_guard lock(g_mutex);
    g_threadEnded = true;
    g_changed.notify_all();
}

int exitWhileAThreadEnds()
{
    std::atexit(holdExitUntilTheThreadEnds);
    if (!OpenSslExit::leaveCleanupToProcessExit())
        return 3;
    pthread_key_t last = 0;
    if (pthread_key_create(&last, markTheThreadEnded) != 0)
        return 4;
    // Static: the detached thread may still be inside set_value() when this returns.
    static std::promise<bool> drew;
    std::thread([last] {
        thread_local WaitForTheExitHandlers wait;
        unsigned char bytes[16];
        // Per-thread random state: OpenSSL registers this thread's state for cleanup.
        const bool ok = RAND_bytes(bytes, sizeof bytes) == 1;
        pthread_setspecific(last, &wait);
        drew.set_value(ok);
    }).detach();
    return drew.get_future().get() ? 0 : 5;
}

} // namespace

class TestOpenSslExit : public QObject
{
    Q_OBJECT

private slots:
    void aThreadEndingDuringExitDoesNotCrash();
};

void TestOpenSslExit::aThreadEndingDuringExitDoesNotCrash()
{
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(kExitChild)});
    QVERIFY(child.waitForStarted(10000));
    const bool ended = child.waitForFinished(60000);
    if (!ended)
        child.kill();
    QVERIFY2(ended, "the child hung on exit");
    QVERIFY2(child.exitStatus() == QProcess::NormalExit, child.readAllStandardError().constData());
    QCOMPARE(child.exitCode(), 0);
}

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], kExitChild) == 0)
        return exitWhileAThreadEnds();
    QCoreApplication app(argc, argv);
    TestOpenSslExit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_opensslexit.moc"
