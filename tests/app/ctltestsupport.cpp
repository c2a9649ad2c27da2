#include "tests/app/ctltestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>

namespace CtlTestSupport {

QJsonObject Run::json() const
{
    return QJsonDocument::fromJson(out).object();
}

Run ctl(const QStringList &arguments, const QByteArray &stdinData)
{
    const ProcessRun::Result result = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, stdinData);
    if (!result.finished)
        return {};
    return {result.exitCode, result.out, result.err};
}

ProcessRun::Result ctlWithKey(const QStringList &arguments, const QByteArray &key,
                              const QByteArray &stdinData)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("CAPDESK_TERMINAL_KEY"));
    if (!key.isEmpty())
        environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(key));
    return ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, stdinData, environment);
}

QStringList findingCodes(const QJsonObject &report)
{
    QStringList list;
    for (const QJsonValue &finding : report.value(QStringLiteral("findings")).toArray())
        list.append(finding.toObject().value(QStringLiteral("code")).toString());
    return list;
}

} // namespace CtlTestSupport
