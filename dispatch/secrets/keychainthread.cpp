#include "dispatch/secrets/keychainthread.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMutex>
#include <QTimer>

#include <qt6keychain/keychain.h>

namespace {

const QString service = QStringLiteral("capdesk");

// How long the application's teardown waits for the thread to leave its event loop. The
// loop only ever waits on QtKeychain's asynchronous calls, so it leaves at once; the bound
// is for a backend caught in a synchronous D-Bus call.
constexpr int shutDownWaitMs = 5000;

QBasicMutex mutex;
KeychainThread *keychainThread = nullptr; // guarded by mutex
bool closed = false; // guarded by mutex

KeychainReply failed(const QString &why)
{
    return {KeychainReply::Status::Failed, {}, why};
}

QKeychain::Job *createJob(const KeychainRequest &request)
{
    QKeychain::Job *job = nullptr;
    switch (request.kind) {
    case KeychainRequest::Kind::Read:
        job = new QKeychain::ReadPasswordJob(service);
        break;
    case KeychainRequest::Kind::Write: {
        auto *write = new QKeychain::WritePasswordJob(service);
        write->setTextData(request.value);
        job = write;
        break;
    }
    case KeychainRequest::Kind::Delete:
        job = new QKeychain::DeletePasswordJob(service);
        break;
    }
    job->setKey(request.name);
    return job;
}

KeychainReply replyOf(QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::NoError: {
        auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(job);
        return {KeychainReply::Status::Done, read ? read->textData() : QString(), {}};
    }
    case QKeychain::EntryNotFound:
        return {KeychainReply::Status::NotFound, {}, {}};
    default:
        return failed(job->errorString());
    }
}

} // namespace

KeychainThread::KeychainThread() : m_home(new QObject)
{
    setObjectName(QStringLiteral("capdesk keychain"));
    // Moved before the thread runs, so wake-ups posted right after start() wait for its loop.
    m_home->moveToThread(this);
}

KeychainThread::~KeychainThread() = default;

void KeychainThread::submit(KeychainRequest request, Answer answer)
{
    QMutexLocker locker(&mutex);
    if (closed) {
        locker.unlock();
        answer(failed(QStringLiteral("the application is closing")));
        return;
    }
    if (!keychainThread) {
        QCoreApplication *application = QCoreApplication::instance();
        if (!application) {
            locker.unlock();
            answer(failed(QStringLiteral("no application to run the keychain on")));
            return;
        }
        keychainThread = new KeychainThread;
        // Deleted by the application's teardown, on the application's thread.
        keychainThread->moveToThread(application->thread());
        keychainThread->start();
        qAddPostRoutine(&KeychainThread::shutDown);
    }
    keychainThread->m_queued.append({std::move(request), std::move(answer)});
    // Queued even when called on the keychain thread itself: the mutex is held here.
    QMetaObject::invokeMethod(
        keychainThread->m_home, [thread = keychainThread] { thread->startQueued(); }, Qt::QueuedConnection);
}

void KeychainThread::run()
{
    exec();
    // Closing: `closed` is set, so nothing is queued any more. Jobs still running are left
    // to QtKeychain: deleting one would start the next in its queue, and with this loop gone
    // no callback of theirs can run.
    QList<Pending> queued;
    {
        QMutexLocker locker(&mutex);
        queued.swap(m_queued);
    }
    const KeychainReply closing = failed(QStringLiteral("the application is closing"));
    for (const Pending &pending : std::as_const(queued))
        pending.answer(closing);
    for (const Answer &answer : std::as_const(m_running))
        answer(closing);
    m_running.clear();
    delete m_home;
}

void KeychainThread::startQueued()
{
    QList<Pending> queued;
    {
        QMutexLocker locker(&mutex);
        queued.swap(m_queued);
    }
    for (Pending &pending : queued)
        startJob(std::move(pending));
}

void KeychainThread::startJob(Pending pending)
{
    QKeychain::Job *job = createJob(pending.request);
    // The job holds its own copy now; this one is overwritten rather than left in freed memory.
    pending.request.value.fill(u'\0');
    m_running.emplace(job, std::move(pending.answer));
    connect(job, &QKeychain::Job::finished, m_home,
            [this](QKeychain::Job *done) { finish(done, replyOf(done)); });
    // A job that never reports keeps running inside QtKeychain (it cannot be cancelled, and
    // it deletes itself if it ever finishes); only its caller stops waiting.
    QTimer::singleShot(jobTimeoutMs, job, [this, job] {
        finish(job,
               failed(QStringLiteral("the keychain did not answer within %1 s").arg(jobTimeoutMs / 1000)));
    });
    job->setAutoDelete(true);
    job->start();
}

void KeychainThread::finish(QKeychain::Job *job, const KeychainReply &reply)
{
    const Answer answer = m_running.take(job);
    if (answer)
        answer(reply);
}

void KeychainThread::shutDown()
{
    KeychainThread *thread = nullptr;
    {
        QMutexLocker locker(&mutex);
        closed = true;
        thread = std::exchange(keychainThread, nullptr);
    }
    if (!thread)
        return;
    thread->quit();
    if (thread->wait(QDeadlineTimer(shutDownWaitMs))) {
        delete thread;
        return;
    }
    // Deleting a running QThread aborts the process; leaving it is the lesser harm.
    qWarning("capdesk: the keychain thread did not stop within %d ms; leaving it", shutDownWaitMs);
}
