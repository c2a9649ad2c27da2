#pragma once

#include <QString>

#include <optional>

// A row's `auth` column read (SPEC §3): `bearer:NAME`, `basic:NAME`, `query:NAME` (query
// parameter `key`) or `query:PARAM=NAME`. NAME names a secret, never holds one. The
// request builder, the secrets inventory and (later) the linter read auth only here.
struct AuthSpec
{
    enum class Kind { Bearer, Basic, Query };

    Kind kind = Kind::Bearer;
    QString name; // the secret's name
    QString parameter; // Query: the query parameter that carries the value

    // nullopt for anything but the four forms, with a NAME like an environment variable's.
    static std::optional<AuthSpec> parse(const QString &auth);
    // "bearer", "basic", "query:key", "query:PARAM"
    QString form() const;
};
