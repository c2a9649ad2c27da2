#include "models/guithreadinbox.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <cstring>
#include <memory>

// A process of its own (this program run with kExitChild), because what is checked is how
// an application ends: an answer still queued then, holding the last reference to an
// object that itself has an event queued (as a server connection has its in-flight notice),
// must be dropped without hanging the exit. Posted to the application object itself, it
// deadlocks on Qt's posted-event lock.
constexpr char kExitChild[] = "--exit-with-an-answer-queued";

namespace {

int exitWithAnAnswerQueued(int argc, char **argv)
{
    {
        QGuiApplication app(argc, argv);
        auto held = std::make_shared<QObject>();
        QObject *object = held.get();
        if (!GuiThreadInbox::post([keep = std::move(held)] {}))
            return 3;
        // Queued after the answer, so it is still queued when the answer is dropped.
        QMetaObject::invokeMethod(
            object, [] {}, Qt::QueuedConnection);
    }
    // The application is gone: the inbox refuses, and the caller keeps its answer.
    return GuiThreadInbox::post([] {}) ? 4 : 0;
}

} // namespace

class TestGuiThreadInbox : public QObject
{
    Q_OBJECT

private slots:
    void anAnswerRunsOnTheGuiThread();
    void anAnswerQueuedAtExitNeitherHangsNorRuns();
};

void TestGuiThreadInbox::anAnswerRunsOnTheGuiThread()
{
    QThread *ranOn = nullptr;
    bool posted = false;
    std::unique_ptr<QThread> worker(QThread::create([&ranOn, &posted] {
        posted = GuiThreadInbox::post([&ranOn] { ranOn = QThread::currentThread(); });
    }));
    worker->start();
    QVERIFY(worker->wait(10000));
    QVERIFY(posted);
    QTRY_COMPARE(ranOn, QCoreApplication::instance()->thread());
}

void TestGuiThreadInbox::anAnswerQueuedAtExitNeitherHangsNorRuns()
{
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(kExitChild)});
    QVERIFY(child.waitForStarted(10000));
    const bool ended = child.waitForFinished(20000);
    if (!ended)
        child.kill();
    QVERIFY2(ended, "the child hung on exit with an answer queued");
    QCOMPARE(child.exitStatus(), QProcess::NormalExit);
    QCOMPARE(child.exitCode(), 0);
}

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], kExitChild) == 0)
        return exitWithAnAnswerQueued(argc, argv);
    QCoreApplication app(argc, argv);
    TestGuiThreadInbox test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guithreadinbox.moc"
