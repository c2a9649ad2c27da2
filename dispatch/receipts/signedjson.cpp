#include "dispatch/receipts/signedjson.h"

#include "dispatch/json/canonicaljson.h"

QByteArray SignedJson::signedBytes(QJsonObject document)
{
    document.remove(QStringLiteral("signature"));
    return CanonicalJson::serialize(document);
}
