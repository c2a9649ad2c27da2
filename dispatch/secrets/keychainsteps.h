#pragma once

#include "dispatch/secrets/keychainstore.h"

#include <functional>

// Asks the keychain one question at a time and continues with the answer, either at once
// after blocking the calling thread (blocking(), for the CLI) or later on a context
// object's thread without blocking it (onContext()). Code that asks several questions in
// a row, each depending on the last, is written once for both.
class KeychainSteps final
{
public:
    static KeychainSteps blocking();
    // The continuations run in `context`'s event loop, and not at all once it is destroyed.
    static KeychainSteps onContext(QObject *context);

    void read(const QString &name, std::function<void(const KeychainStore::Read &)> then) const;
    void set(const QString &name, const QString &value,
             std::function<void(const KeychainStore::Outcome &)> then) const;
    void remove(const QString &name, std::function<void(const KeychainStore::Outcome &)> then) const;
    void available(std::function<void(const KeychainStore::Outcome &)> then) const;
    // Runs `then` as a step of its own: at once when blocking, else from the context's event
    // loop, so an asynchronous caller is never answered before its call returns.
    void next(std::function<void()> then) const;

private:
    explicit KeychainSteps(QObject *context);

    bool isBlocking() const { return !m_context; }

    // Null when blocking. Every step runs on its thread while it lives, so it is valid here.
    QObject *m_context;
};
