#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/tokens/capabilitytoken.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

// The `capability_tokens` table of a directory file (SPEC §7). A token's value is made
// here, handed back once and never stored: only its SHA-256 is kept, so a copy of the
// file grants nothing. Every change appends its event (TOKEN_CREATED, TOKEN_REVOKED) in the
// same write transaction, so the log and the table agree.
class CapabilityTokenStore final
{
public:
    struct Minted
    {
        CapabilityToken token;
        QString value; // "cdt_" + 43 base64url characters; shown once
    };

    explicit CapabilityTokenStore(const QSqlDatabase &db);

    // Gives `spec` a new id and creation time (any it carries are replaced) and stores it
    // unrevoked. An invalid spec, or one already expired, is refused and nothing is written.
    StoreResult<Minted> create(CapabilityToken spec, const QString &actor);
    // Oldest first.
    StoreResult<QList<CapabilityToken>> list() const;
    // NotFound for an unknown id; Invalid "already revoked" for a revoked one.
    StoreError revoke(const QString &id, const QString &actor);
    // NotFound when no token has this value. The message never repeats the value.
    StoreResult<CapabilityToken> findByValue(const QString &value) const;

    // Lowercase hex SHA-256 of the value's UTF-8 bytes: what the table keeps.
    static QString hashOf(const QString &value);

private:
    static QString newValue();
    StoreResult<QString> freshId() const;

    QSqlDatabase m_db;
};
