#pragma once

#include <QString>

#include <functional>
#include <optional>

class QObject;

// Where credential values come from at call time (SPEC §3 Auth): the process environment
// first, then the OS keychain; in the app, a value kept in memory for want of a keychain
// (MemorySecrets) comes between the two. Rows only ever name a secret.
class SecretSource
{
public:
    virtual ~SecretSource() = default;

    enum class Origin { Missing, Environment, Memory, Keychain };
    struct Lookup
    {
        Origin origin = Origin::Missing;
        QString value;
    };

    // Blocking; called off the GUI thread or from the CLI.
    virtual Lookup lookup(const QString &name) const = 0;
    // Without blocking: `done` runs later in `context`'s event loop, and not at all once
    // `context` is destroyed. Call it on `context`'s thread. This default answers from
    // lookup() at once, for sources that never wait; one that may wait overrides it.
    virtual void lookupAsync(const QString &name, QObject *context,
                             std::function<void(const Lookup &)> done) const;
};
