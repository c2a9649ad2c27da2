#include "keychainstore.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

#include <qt6keychain/keychain.h>

#include <functional>

namespace {

const QString service = QStringLiteral("capdesk");

// The name of an entry nobody writes: reading it proves the Secret Service answers.
const QString probeName = QStringLiteral("capdesk-availability-probe");

struct JobOutcome
{
    QKeychain::Error error = QKeychain::NoError;
    QString errorString;
    QString value;
};

// Starts `job` (created on the current thread) and waits for it under a local loop.
// The job deletes itself once finished, also after a timeout here.
JobOutcome runHere(QKeychain::Job *job, const std::function<void(QKeychain::Job *)> &onFinished = {})
{
    JobOutcome outcome{
        QKeychain::OtherError,
        QStringLiteral("the keychain did not answer within %1 s").arg(KeychainStore::timeoutMs / 1000),
        {}};
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&](QKeychain::Job *finished) {
        outcome.error = finished->error();
        outcome.errorString = finished->errorString();
        if (onFinished)
            onFinished(finished);
        loop.quit();
    });
    QTimer::singleShot(KeychainStore::timeoutMs, &loop, &QEventLoop::quit);
    job->setAutoDelete(true);
    job->start();
    loop.exec();
    return outcome;
}

// Runs `work` on the main thread (see the header for why) and returns its outcome.
JobOutcome onMainThread(const std::function<JobOutcome()> &work)
{
    QCoreApplication *app = QCoreApplication::instance();
    if (!app)
        return {QKeychain::NoBackendAvailable,
                QStringLiteral("no application event loop to run the keychain on"),
                {}};
    if (QThread::currentThread() == app->thread())
        return work();
    JobOutcome outcome;
    QMetaObject::invokeMethod(
        app, [&] { outcome = work(); }, Qt::BlockingQueuedConnection);
    return outcome;
}

JobOutcome readEntry(const QString &name)
{
    return onMainThread([&] {
        auto *job = new QKeychain::ReadPasswordJob(service);
        job->setKey(name);
        QString value;
        JobOutcome outcome = runHere(job, [&](QKeychain::Job *finished) {
            value = static_cast<QKeychain::ReadPasswordJob *>(finished)->textData();
        });
        outcome.value = value;
        return outcome;
    });
}

QString unavailableText(const JobOutcome &outcome)
{
    return QStringLiteral("no Secret Service is reachable (%1): secrets come from the environment only")
        .arg(outcome.errorString);
}

bool fail(const JobOutcome &outcome, QString *why)
{
    if (why)
        *why = unavailableText(outcome);
    return false;
}

} // namespace

KeychainStore::Read KeychainStore::read(const QString &name) const
{
    const JobOutcome outcome = readEntry(name);
    if (outcome.error == QKeychain::NoError)
        return {Read::Status::Found, outcome.value, {}};
    if (outcome.error == QKeychain::EntryNotFound)
        return {Read::Status::NotFound, {}, {}};
    return {Read::Status::Unavailable, {}, unavailableText(outcome)};
}

bool KeychainStore::has(const QString &name, QString *why) const
{
    const Read entry = read(name);
    if (why)
        *why = entry.error;
    return entry.status == Read::Status::Found;
}

bool KeychainStore::set(const QString &name, const QString &value, QString *why)
{
    const JobOutcome outcome = onMainThread([&] {
        auto *job = new QKeychain::WritePasswordJob(service);
        job->setKey(name);
        job->setTextData(value);
        return runHere(job);
    });
    return outcome.error == QKeychain::NoError || fail(outcome, why);
}

bool KeychainStore::remove(const QString &name, QString *why)
{
    const JobOutcome outcome = onMainThread([&] {
        auto *job = new QKeychain::DeletePasswordJob(service);
        job->setKey(name);
        return runHere(job);
    });
    // Removing what is not there leaves the keychain as asked.
    return outcome.error == QKeychain::NoError || outcome.error == QKeychain::EntryNotFound
           || fail(outcome, why);
}

bool KeychainStore::available(QString *why) const
{
    const JobOutcome outcome = readEntry(probeName);
    return outcome.error == QKeychain::NoError || outcome.error == QKeychain::EntryNotFound
           || fail(outcome, why);
}
