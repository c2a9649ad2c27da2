#include "dispatch/store/defaultlocations.h"

#include "dispatch/store/postgreslocation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QStandardPaths>

namespace DefaultLocations {

QString directoryFile()
{
    // Named explicitly so the path does not depend on the executable's name.
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(data).filePath(QStringLiteral("capdesk/directory.db"));
}

QString signingKeyFile(const QString &directoryLocation)
{
    if (!PostgresLocation::isUrl(directoryLocation))
        return directoryLocation + QStringLiteral(".signing-key");
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    const QByteArray hash = QCryptographicHash::hash(directoryLocation.toUtf8(), QCryptographicHash::Sha256);
    return QDir(data).filePath(
        QStringLiteral("capdesk/signing-keys/%1.pem").arg(QString::fromLatin1(hash.toHex().left(16))));
}

} // namespace DefaultLocations
