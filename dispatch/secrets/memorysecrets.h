#pragma once

#include "dispatch/secrets/secretsource.h"

#include <QHash>
#include <QReadWriteLock>

// Secret values the owner typed while no keychain answered (no Secret Service on the
// session's D-Bus), kept in this process's memory only: never written to the directory, the
// settings, a log or a receipt, and gone when the process ends. The app keeps one for its
// whole run and hands it to every local directory it opens, so a value set once serves
// every directory until Capdesk closes. Every member is thread-safe: the Secrets dialog
// writes on the GUI thread while dispatchers and runners read on theirs.
class MemorySecrets final : public SecretSource
{
public:
    MemorySecrets() = default;
    ~MemorySecrets() override;
    Q_DISABLE_COPY_MOVE(MemorySecrets)

    // Origin Memory with a copy of the value, or Missing.
    Lookup lookup(const QString &name) const override;
    // An empty value removes the name: an empty credential is no credential.
    void set(const QString &name, const QString &value);
    // Whether there was a value to drop.
    bool remove(const QString &name);
    bool has(const QString &name) const;
    bool isEmpty() const;

private:
    // Every value here is a copy of its own, never shared with a caller's string, so it
    // can be overwritten in place before its memory is freed.
    static QString ownCopy(const QString &value);
    static void wipe(QString &value);

    mutable QReadWriteLock m_lock;
    QHash<QString, QString> m_values;
};
