#include "app/capdeskctl/ctloutput.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace CtlOutput {

int exitCodeFor(const StoreError &error)
{
    switch (error.kind) {
    case StoreError::Kind::None:
        return Ok;
    case StoreError::Kind::NotFound:
        return NotFound;
    case StoreError::Kind::Invalid:
    case StoreError::Kind::AlreadyExists:
    case StoreError::Kind::Conflict:
    case StoreError::Kind::NotDirectory:
    case StoreError::Kind::TooNew:
    case StoreError::Kind::Unauthorized:
        return Refused;
    case StoreError::Kind::Unreachable:
        return Unreachable;
    case StoreError::Kind::Io:
    case StoreError::Kind::Cancelled:
        break;
    }
    return Findings;
}

void printRaw(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void printJson(const QJsonValue &value)
{
    const QJsonDocument document =
        value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    printRaw(document.toJson(QJsonDocument::Indented));
}

int fail(const StoreError &error, int exitCode)
{
    QJsonObject answer{{QStringLiteral("ok"), false}, {QStringLiteral("error"), error.message}};
    // A refused row's broken rules, by code, as `lint` prints findings.
    if (!error.details.isEmpty() && error.details.first().toObject().contains(QStringLiteral("code")))
        answer.insert(QStringLiteral("findings"), error.details);
    printJson(answer);
    note(error.message);
    return exitCode >= 0 ? exitCode : exitCodeFor(error);
}

void note(const QString &message)
{
    std::fprintf(stderr, "capdeskctl: %s\n", qUtf8Printable(message));
}

int usage(const QString &message)
{
    if (!message.isEmpty())
        note(message);
    return UsageWithSynopsis;
}

} // namespace CtlOutput
