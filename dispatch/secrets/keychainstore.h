#pragma once

#include <QString>

#include <functional>

class QObject;

// The OS keychain entries of service "capdesk", one per secret NAME (SPEC §3 Auth), for
// the runners' lookups, the signing-key vault, server profiles and the Secrets dialog. No
// secret value is ever logged or put into an error text.
//
// Every job runs on the process's one keychain thread (KeychainThread: QtKeychain 0.13 is
// not thread-safe, see there). Two ways to ask it:
// - blocking (read, has, set, remove, available): the caller's thread waits for the
//   answer, without an event loop of its own. For the CLI and worker threads; never on
//   the GUI thread, which would freeze for as long as the keychain takes (an unlock prompt
//   can take a minute).
// - asynchronous (…Async): returns at once; `done` runs later on `context`'s thread, in
//   its event loop, and not at all when `context` is destroyed first.
// A QCoreApplication must exist; once it is destroyed the keychain answers "unavailable"
// for the rest of the process.
class KeychainStore final
{
public:
    struct Read
    {
        enum class Status { Found, NotFound, Unavailable };
        Status status = Status::NotFound;
        QString value;
        QString error; // why the keychain could not answer (Unavailable)
        QString detail; // the Secret Service's own words within `error`, for a "details" tooltip
    };

    // What set, remove and available come to: done, or why not.
    struct Outcome
    {
        bool ok = false;
        QString error;
        QString detail; // as in Read
    };

    Read read(const QString &name) const;
    bool has(const QString &name, QString *why = nullptr) const;
    bool set(const QString &name, const QString &value, QString *why = nullptr);
    bool remove(const QString &name, QString *why = nullptr);
    // Whether a Secret Service answers at all. When not, `why` says so plainly, e.g.
    // "no Secret Service is reachable (…): secrets come from the environment only".
    bool available(QString *why = nullptr) const;

    void readAsync(const QString &name, QObject *context, std::function<void(const Read &)> done) const;
    void setAsync(const QString &name, const QString &value, QObject *context,
                  std::function<void(const Outcome &)> done);
    // Removing an entry that is not there is done, not an error.
    void removeAsync(const QString &name, QObject *context, std::function<void(const Outcome &)> done);
    void availableAsync(QObject *context, std::function<void(const Outcome &)> done) const;
};
