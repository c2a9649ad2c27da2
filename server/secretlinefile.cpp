#include "server/secretlinefile.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

std::optional<QByteArray> SecretLineFile::read(const QString &path, const QString &what, QString *error)
{
    auto refuse = [&](const QString &why) -> std::optional<QByteArray> {
        *error = why;
        return std::nullopt;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return refuse(QStringLiteral("no %1 file at %2").arg(what, path));
    if (!info.isFile())
        return refuse(QStringLiteral("the %1 file %2 is not a regular file").arg(what, path));
    const QFileDevice::Permissions openToOthers =
        QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
    if (info.permissions() & openToOthers)
        return refuse(QStringLiteral("the %1 file %2 is open to other users; chmod 600 it, and make a "
                                     "new %1 if others may have read it")
                          .arg(what, path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot read the %1 file %2: %3").arg(what, path, file.errorString()));
    QByteArray line = file.read(kMaxBytes + 1);
    if (line.size() > kMaxBytes)
        return refuse(
            QStringLiteral("the %1 file %2 is longer than %3 bytes").arg(what, path).arg(kMaxBytes));
    if (line.endsWith('\n'))
        line.chop(1);
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty())
        return refuse(QStringLiteral("the %1 file %2 is empty").arg(what, path));
    const bool printable =
        std::all_of(line.cbegin(), line.cend(), [](char c) { return c > ' ' && c < 0x7f; });
    if (!printable)
        return refuse(QStringLiteral("the %1 file %2 must hold one line of printable ASCII without spaces")
                          .arg(what, path));
    return line;
}
