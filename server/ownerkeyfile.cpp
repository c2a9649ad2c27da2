#include "server/ownerkeyfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

std::optional<QByteArray> OwnerKeyFile::read(const QString &path, QString *error)
{
    auto refuse = [&](const QString &why) -> std::optional<QByteArray> {
        *error = why;
        return std::nullopt;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return refuse(QStringLiteral("no owner key file at %1").arg(path));
    if (!info.isFile())
        return refuse(QStringLiteral("the owner key file %1 is not a regular file").arg(path));
    const QFileDevice::Permissions openToOthers =
        QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
    if (info.permissions() & openToOthers)
        return refuse(QStringLiteral("the owner key file %1 is open to other users; chmod 600 it, and "
                                     "make a new key if others may have read it")
                          .arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot read the owner key file %1: %2").arg(path, file.errorString()));
    QByteArray key = file.read(kMaxBytes + 1);
    if (key.size() > kMaxBytes)
        return refuse(
            QStringLiteral("the owner key file %1 is longer than %2 bytes").arg(path).arg(kMaxBytes));
    if (key.endsWith('\n'))
        key.chop(1);
    if (key.endsWith('\r'))
        key.chop(1);
    if (key.isEmpty())
        return refuse(QStringLiteral("the owner key file %1 is empty").arg(path));
    const bool printable = std::all_of(key.cbegin(), key.cend(), [](char c) { return c > ' ' && c < 0x7f; });
    if (!printable)
        return refuse(QStringLiteral("the owner key file %1 must hold one line of printable ASCII without "
                                     "spaces")
                          .arg(path));
    return key;
}

QString OwnerKeyFile::credentialPath()
{
    const QString folder = qEnvironmentVariable("CREDENTIALS_DIRECTORY");
    return folder.isEmpty() ? QString() : QDir(folder).filePath(QStringLiteral("owner-key"));
}
