#include "dispatch/receipts/signingkeylist.h"

#include "dispatch/store/sqldialect.h"

#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

StoreResult<SigningKeyList> SigningKeyList::read(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(
            u"SELECT key_id, public_key_pem, succession FROM signing_keys ORDER BY created_at DESC, %1 DESC LIMIT %2"_s
                .arg(SqlDialect::of(db).insertionOrder)
                .arg(kMaxKeys + 1)))
        return StoreError::make(StoreError::Kind::Io, u"cannot read the receipt-signing public keys: "_s
                                                          + query.lastError().text());
    SigningKeyList list;
    for (int rows = 1; query.next(); ++rows) {
        if (rows > kMaxKeys)
            return StoreError::make(
                StoreError::Kind::Invalid,
                u"the directory lists more than %1 receipt-signing keys, which Capdesk never "
                "makes: signing_keys was edited outside it, and no key is read from it"_s.arg(kMaxKeys));
        if (std::optional<PublicKey> key = PublicKey::fromPem(query.value(1).toString().toLatin1(), nullptr))
            list.keys.append(*key);
        if (std::optional<SigningKeySuccession> succession =
                SigningKeySuccession::fromText(query.value(2).toString(), query.value(0).toString()))
            list.successions.append(std::move(*succession));
    }
    return list;
}

bool SigningKeyList::lists(const PublicKey &key) const
{
    return std::any_of(keys.begin(), keys.end(),
                       [&key](const PublicKey &one) { return one.pem() == key.pem(); });
}
