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
    // The file's one line (SecretLineFile), named "owner key" in its errors.
    static std::optional<QByteArray> read(const QString &path, QString *error);
    // $CREDENTIALS_DIRECTORY/owner-key; empty when systemd passed no credentials.
    static QString credentialPath();
};
