#pragma once

#include "dispatch/receipts/receipt.h"
#include "dispatch/row/row.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class CallBudget;

// One call: `(key, body)`, and whether to build the request without sending it.
struct InvocationRequest
{
    QString key;
    QString body;
    bool shape = false;
    // The row as the editor holds it, unsaved, instead of the stored one: the shape panel
    // previews edits before they are saved, and Invoke tries them. Local dispatch only.
    std::optional<Row> draft;

    // Who calls: "owner:local" when empty. A capability token (its value) makes the call
    // a token holder's, gated by SPEC §7 before any runner; `audience` and `ownerPresent`
    // are what the gate checks the token's audience and owner gate against.
    QString actor = {};
    QString token = {};
    QString audience = {};
    bool ownerPresent = false;

    // A nested call (a flow step) names the invocation it runs inside and shares its trace.
    QString parentInvocationId = {};
    QString trace = {};
    // A step of a flow run by the flow runner: answered once its receipt is signed and
    // queued, since the flow's own receipt, durable before the flow answers, carries it to
    // disk (group commit). A debugger's steps are answered durable: it shows their receipts.
    bool answerBeforeDurable = false;
    int depth = 0; // 0 at the top level; a flow refuses to nest deeper than its limit

    // The call tree's budget, shared by every call in it; empty at the top level, where the
    // dispatcher makes one from its limits, lowered by `inheritedBudget`: the
    // Capdesk-Call-Budget header of an http call from another Capdesk dispatch.
    std::shared_ptr<CallBudget> budget = {};
    QByteArray inheritedBudget = {};
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
    bool ran = false; // a runner ran (false: refused before any runner)
    bool shape = false;
    QString runner; // the row's type
    QString trace; // t_ + 8 base-36 characters
    QString invocationId; // inv_ + 10 base-36 characters; empty for shape calls
    RunResult result;
    QString refusal; // why nothing ran (unknown key, disabled row, a gate reason)
    int refusalStatus = 0; // the HTTP status a server answers a refusal with
    qint64 durationMs = 0;
    // The signed receipt of a real call, or why it could not be written.
    std::optional<Receipt> receipt;
    QString receiptError;

    bool material() const { return ran && !shape && !result.isFailure(); }
    QJsonObject toResponse() const;
};
