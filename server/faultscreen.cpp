#include "server/faultscreen.h"

#include "dispatch/core/faultnotice.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

// Replaces the named text member of `object`, unless it is hidden already.
bool hideMember(QJsonObject &object, const QString &name)
{
    const QJsonValue value = object.value(name);
    if (!value.isString() || value.toString().isEmpty() || FaultNotice::isNotice(value.toString()))
        return false;
    object.insert(name, FaultNotice::hide(value.toString()));
    return true;
}

} // namespace

ServerReply FaultScreen::screened(ServerReply reply)
{
    if (reply.status != 500)
        return reply;
    const QJsonDocument document = QJsonDocument::fromJson(reply.body);
    if (!document.isObject()) {
        const ServerReply told = ServerReply::error(500, FaultNotice::hide(QString::fromUtf8(reply.body)));
        reply.contentType = told.contentType;
        reply.body = told.body;
        return reply;
    }
    QJsonObject object = document.object();
    if (hideMember(object, u"error"_s))
        reply.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return reply;
}
