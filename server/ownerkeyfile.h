#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

// An owner key kept in a file rather than the environment: `serve --owner-key-file FILE`,
// or the credential systemd's LoadCredential= hands a service in $CREDENTIALS_DIRECTORY,
// so the key never sits in a unit file or a process's environment.
class OwnerKeyFile final
{
public:
    static constexpr qint64 kMaxBytes = 4096;

    // The file's one line, without its line end. nullopt, with `error` saying why, when the
    // file is missing, open to other users, longer than kMaxBytes, or not one line of
    // printable ASCII (what an x-terminal-key header can carry).
    static std::optional<QByteArray> read(const QString &path, QString *error);
    // $CREDENTIALS_DIRECTORY/owner-key; empty when systemd passed no credentials.
    static QString credentialPath();
};
