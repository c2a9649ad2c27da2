#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

// A secret kept in a file of its own rather than on a command line, where ps and the shell's
// history show it, or in a unit file: serve's owner key (--owner-key-file, or systemd's
// credential), a capability token (--token-file).
class SecretLineFile final
{
public:
    static constexpr qint64 kMaxBytes = 4096;

    // The file's one line, without its line end. nullopt, with `error` saying why, when the
    // file is missing, open to other users, longer than kMaxBytes, or not one line of
    // printable ASCII (what a header can carry). `what` names the secret in the error
    // ("owner key").
    static std::optional<QByteArray> read(const QString &path, const QString &what, QString *error);
};
