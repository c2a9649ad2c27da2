#pragma once

#include <QDateTime>
#include <QString>

struct CapabilityToken;
struct Row;

// One call presented with a capability token.
struct CapabilityCall
{
    QString key;
    QString body;
    QString audience;
    bool ownerPresent = false;
};

// The gate's answer. `reason` is one of SPEC §7's literal reasons (empty when allowed);
// `httpStatus` is what a server answers: 200, 401 unknown token, 403, 409
// contract_changed, 413 payload_ceiling.
struct GateVerdict
{
    bool allowed = false;
    QString reason;
    int httpStatus = 403;
};

// capGateCheck of SPEC §7: decides whether a token lets a call reach a row, before any
// runner. The checks run in the spec's order and the first failure is the answer, so a
// caller learns no more than the earliest reason.
class CapabilityGate final
{
public:
    // `row` is the stored row named by call.key, as it is now: a pinned token compares its
    // fingerprint, so an edited row cannot slip into a token's reach.
    static GateVerdict check(const CapabilityToken &token, const CapabilityCall &call, const Row &row,
                             const QDateTime &nowUtc);
    // The checks that need the token alone, no call or row: revoked, then expired. What a
    // server can decide on a request's head, before its body (the call) is read.
    static GateVerdict checkToken(const CapabilityToken &token, const QDateTime &nowUtc);
    // The value presented matches no stored token.
    static GateVerdict unknownToken();
};
