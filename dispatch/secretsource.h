#pragma once

#include <QString>

#include <optional>

// Where credential values come from at call time (SPEC §3 Auth): the process environment
// first, then the OS keychain. Rows only ever name a secret.
class SecretSource
{
public:
    virtual ~SecretSource() = default;

    enum class Origin { Missing, Environment, Keychain };
    struct Lookup
    {
        Origin origin = Origin::Missing;
        QString value;
    };

    // Blocking; called off the GUI thread or from the CLI.
    virtual Lookup lookup(const QString &name) const = 0;
};
