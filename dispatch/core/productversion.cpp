#include "dispatch/core/productversion.h"

QString ProductVersion::number()
{
    return QStringLiteral(CAPDESK_VERSION);
}

QByteArray ProductVersion::product()
{
    return QByteArrayLiteral("Capdesk/" CAPDESK_VERSION);
}
