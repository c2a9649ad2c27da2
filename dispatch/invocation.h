#pragma once

#include "row.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// One call: `(key, body)`, and whether to build the request without sending it.
struct InvocationRequest
{
    QString key;
    QString body;
    bool shape = false;
    // The row as the editor holds it, unsaved, instead of the stored one: the shape panel
    // previews edits before they are saved, and Invoke tries them. Local dispatch only.
    std::optional<Row> draft;
};

// What a runner hands back. A real call gives `output` (an output starting with "ERR:"
// is a failure); a shape call gives `shapeRequest` (SPEC §11's "request") and `notes`.
struct RunResult
{
    QString output;
    QJsonObject shapeRequest;
    QStringList notes;

    static RunResult failure(const QString &message) { return {QStringLiteral("ERR: ") + message, {}, {}}; }
    bool isFailure() const { return output.startsWith(QLatin1String("ERR:")); }
};

// The finished invocation as every front end reports it (SPEC §11 response objects).
struct InvocationOutcome
{
    bool ran = false;        // a runner ran (false: refused before any runner)
    bool shape = false;
    QString runner;          // the row's type
    QString trace;           // t_ + 8 base-36 characters
    QString invocationId;    // inv_ + 10 base-36 characters; empty for shape calls
    RunResult result;
    QString refusal;         // why nothing ran (unknown key, disabled row, …)
    qint64 durationMs = 0;

    bool material() const { return ran && !shape && !result.isFailure(); }
    QJsonObject toResponse() const;
};
