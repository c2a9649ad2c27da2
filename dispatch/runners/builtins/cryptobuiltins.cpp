#include "dispatch/runners/builtins/cryptobuiltins.h"

#include "dispatch/runners/builtins/builtinregistry.h"

#include <QCryptographicHash>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace {

QString sha256(const BuiltinCall &call)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(call.arg(0).toUtf8(), QCryptographicHash::Sha256).toHex());
}

// QUuid::createUuid() is a random (version 4) UUID; WithoutBraces writes it lower-case.
QString uuid(const BuiltinCall &)
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace

void registerCryptoBuiltins(BuiltinRegistry &registry)
{
    registry.add(u"sha256"_s, sha256, u"Lower-case hex SHA-256 of arg 1's UTF-8 bytes"_s);
    registry.add(u"uuid"_s, uuid, u"A random version 4 UUID, lower case"_s);
}
