#pragma once

#include "dispatch/core/storeerror.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

struct Row;

// What a capability token allows (SPEC §7), as stored in `capability_tokens`. It never
// holds the token's value: the value exists only in the hands of whoever it was given
// to, and the store keeps its SHA-256 alone.
struct CapabilityToken
{
    QString id; // "tok_" + 8 lowercase base-36
    QString label;
    QString audience; // who may present it; a call naming another audience is refused
    // Each call also needs the owner present: the owner's terminal key on a server, an
    // explicit --owner-present locally.
    bool ownerGate = false;
    QStringList allowedKeys;
    QStringList allowedCategories;
    QString pinnedContract; // contract fingerprint; empty = none
    QString riskCeiling = QStringLiteral("low"); // "low" | "high"
    std::optional<QString> fixedBody;
    std::optional<qint64> payloadCeiling; // bytes of UTF-8 body
    QString expiresAt; // ISO-8601 UTC; empty = never
    QString revokedAt; // empty = not revoked
    QString createdAt;

    // A token arrives from the REST API, MCP and the command line: each text and list is
    // capped as a row's fields are (V004), and the audience travels in an HTTP header.
    static constexpr qsizetype kMaxNameBytes = 256; // audience, label, each key or category
    static constexpr qsizetype kMaxNames = 1000; // keys, and categories
    static constexpr qsizetype kMaxFixedBodyBytes = 1024 * 1024;

    static QString newId();

    // The rules a token must meet to be stored; Invalid names the field that breaks one.
    StoreError validate() const;
    bool isRevoked() const { return !revokedAt.isEmpty(); }
    // An expiry that does not parse counts as passed: a damaged row must not live forever.
    bool isExpired(const QDateTime &nowUtc) const;
    // "revoked", "expired" or "active".
    QString status(const QDateTime &nowUtc) const;
    // "keys A, B; categories c" for tables and messages.
    QString scopeText() const;
    // "A, B ,,C" → {A, B, C}: how the CLI, the form and the table columns write a list.
    static QStringList splitList(const QString &text);

    // Pins the contract of `row` as it is now. A pinned token reaches that row alone (any
    // other row has another fingerprint), so its scope becomes exactly that key; a scope
    // naming other keys or any category is refused rather than silently narrowed.
    StoreError pinToRow(const Row &row);

    // ISO-8601 (a missing zone means UTC) or a count with a unit counted from `nowUtc`:
    // "90m", "12h", "30d", "2w". Gives the ISO-8601 UTC instant; empty text gives "".
    static StoreResult<QString> resolveExpiry(const QString &text, const QDateTime &nowUtc);

    // Column names as keys; absent optionals as null.
    QJsonObject toJson() const;
    // Refuses unknown members by name (there is no member for a token value) and any spec
    // validate() refuses; a relative expires_at is resolved against `nowUtc`.
    static StoreResult<CapabilityToken> fromJson(const QJsonObject &object,
                                                 const QDateTime &nowUtc = QDateTime::currentDateTimeUtc());
};
