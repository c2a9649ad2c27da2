#include "server/ownerkeyfile.h"

#include "server/secretlinefile.h"

#include <QDir>

std::optional<QByteArray> OwnerKeyFile::read(const QString &path, QString *error)
{
    return SecretLineFile::read(path, QStringLiteral("owner key"), error);
}

QString OwnerKeyFile::credentialPath()
{
    const QString folder = qEnvironmentVariable("CREDENTIALS_DIRECTORY");
    return folder.isEmpty() ? QString() : QDir(folder).filePath(QStringLiteral("owner-key"));
}
