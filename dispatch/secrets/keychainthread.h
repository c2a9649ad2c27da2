#pragma once

#include "dispatch/secrets/keychainrequest.h"

#include <QHash>
#include <QList>
#include <QThread>

#include <functional>

namespace QKeychain {
class Job;
}

// The one thread of the process that touches QtKeychain, with an event loop of its own.
// QtKeychain 0.13 queues every job of the process in one unsynchronised JobExecutor owned
// by the thread that first used it, and reports a job to that thread's event loop: so the
// first thread must also be the only one, and it must outlive every job.
//
// It starts on the first request made while a QCoreApplication exists and stops when that
// application is destroyed (a post routine, run before Qt's own teardown and before static
// destruction). Requests still waiting then are answered Failed, so no caller waits past
// the application. After that the keychain stays closed for the rest of the process:
// QtKeychain's queue still belongs to the ended thread, and a job started anywhere else
// would never be reported.
class KeychainThread final : public QThread
{
public:
    using Answer = std::function<void(const KeychainReply &)>;

    // How long one job may take before it is answered as failed; long enough for a user
    // to answer an unlock prompt.
    static constexpr int jobTimeoutMs = 60000;

    // Queues `request` and returns at once. `answer` is called exactly once: on the keychain
    // thread with the job's reply, or right here when no job can run (no application yet,
    // or closing).
    static void submit(KeychainRequest request, Answer answer);

    ~KeychainThread() override;

private:
    struct Pending
    {
        KeychainRequest request;
        Answer answer;
    };

    KeychainThread();
    Q_DISABLE_COPY_MOVE(KeychainThread)

    void run() override;
    void startQueued();
    void startJob(Pending pending);
    void finish(QKeychain::Job *job, const KeychainReply &reply);
    static void shutDown();

    // The receiver of "requests queued" wake-ups, living in this thread.
    QObject *m_home;
    // Guarded by the file's mutex: handed over by submit(), taken by startQueued().
    QList<Pending> m_queued;
    // This thread only: the jobs QtKeychain is running, each with its caller's answer.
    QHash<QKeychain::Job *, Answer> m_running;
};
