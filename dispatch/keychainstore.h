#pragma once

#include <QString>

// The OS keychain entries of service "capdesk", one per secret NAME (SPEC §3 Auth), for
// the runners' lookups and the Secrets dialog. Every call blocks until the keychain
// answers; no secret value is ever logged or put into an error text.
//
// QtKeychain 0.13 is not thread-safe: all jobs of a process pass through one
// unsynchronised queue (JobExecutor) that belongs to the thread that first used it, and
// a job finishing on another thread is reported to that thread's event loop. Jobs started
// from worker threads therefore race on the queue and hang for good once the first
// thread has ended. So every job here runs on the application's main thread: there
// directly under a local event loop, from any other thread through a blocking queued
// call. Consequence: a QCoreApplication must exist, and the main thread must not block
// waiting for a worker that is reading the keychain.
class KeychainStore final
{
public:
    struct Read
    {
        enum class Status { Found, NotFound, Unavailable };
        Status status = Status::NotFound;
        QString value;
        QString error; // why the keychain could not answer (Unavailable)
    };

    // How long one keychain operation may take before it counts as unavailable; long
    // enough for a user to answer an unlock prompt.
    static constexpr int timeoutMs = 60000;

    Read read(const QString &name) const;
    bool has(const QString &name, QString *why = nullptr) const;
    bool set(const QString &name, const QString &value, QString *why = nullptr);
    bool remove(const QString &name, QString *why = nullptr);

    // Whether a Secret Service answers at all. When not, `why` says so plainly, e.g.
    // "no Secret Service is reachable (…): secrets come from the environment only".
    bool available(QString *why = nullptr) const;
};
