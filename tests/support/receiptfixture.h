#pragma once

// A deterministic receipt log for the receipt viewer's tests and benchmark, written
// straight into `receipts` with SQL in one transaction: DirectoryLedger::issue commits
// and syncs every receipt, which would take minutes for 100,000.
//
// Receipt n: key RK_0000…, one of three actors and four runners, started 1.5 s after
// receipt n-1 (plus jitter), 10% without a material result. Every fifth group of four
// shares a trace: three calls whose parent is the fourth, a flow that finishes last.

#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/signingkey.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <vector>

namespace ReceiptFixture {

inline constexpr qint64 kStartMsecs = 1767225600000; // 2026-01-01T00:00:00.000Z

inline quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// `digits` base-36 characters of a bijection of `n`, so distinct n give distinct ids.
inline QString base36(quint64 n, int digits)
{
    quint64 modulus = 1;
    for (int i = 0; i < digits; ++i)
        modulus *= 36;
    // 999999999989 is prime, so coprime to 36: a bijection for n below 2^24 without overflow.
    quint64 value = (n * 999999999989ULL + 12345ULL) % modulus;
    QString text(digits, u'0');
    for (int i = digits - 1; i >= 0; --i) {
        text[i] = QLatin1Char("0123456789abcdefghijklmnopqrstuvwxyz"[value % 36]);
        value /= 36;
    }
    return text;
}

inline QString invocationId(int n)
{
    return QStringLiteral("inv_") + base36(quint64(n), 10);
}

inline bool grouped(int n)
{
    return (n / 4) % 5 == 0;
}

inline Receipt receipt(int n, int keyCount)
{
    const quint64 h = mix(quint64(n));
    Receipt r;
    r.invocationId = invocationId(n);
    r.trace = QStringLiteral("t_") + base36(grouped(n) ? 2 * quint64(n / 4) : 2 * quint64(n) + 1, 8);
    if (grouped(n) && n % 4 != 3)
        r.parent = invocationId(n - n % 4 + 3);
    r.key = QStringLiteral("RK_%1").arg(int(h % quint64(keyCount)), 4, 10, QLatin1Char('0'));
    static const QString actors[] = {QStringLiteral("owner:terminal-key"), QStringLiteral("agent:planner"),
                                     QStringLiteral("token:tok_ab12")};
    static const QString runners[] = {QStringLiteral("fn"), QStringLiteral("http"), QStringLiteral("agent"),
                                      QStringLiteral("flow")};
    r.actor = actors[(h >> 8) % 3];
    r.runner = grouped(n) && n % 4 == 3 ? runners[3] : runners[(h >> 12) % 3];
    r.startedAt =
        QDateTime::fromMSecsSinceEpoch(kStartMsecs + qint64(n) * 1500 + qint64((h >> 16) % 1000), Qt::UTC)
            .toString(Qt::ISODateWithMs);
    r.durationMs = qint64((h >> 24) % 2000);
    r.material = (h >> 40) % 10 != 0;
    r.status = Receipt::statusFor(r.material);
    r.inputFingerprint = Receipt::sha256Hex(QString::number(n));
    r.outputFingerprint = Receipt::sha256Hex(r.invocationId);
    r.contractFingerprint = Receipt::sha256Hex(r.key);
    return r;
}

inline QString appendReceipt(QSqlQuery &insert, const Receipt &r)
{
    insert.addBindValue(r.invocationId);
    insert.addBindValue(r.trace);
    insert.addBindValue(r.key);
    insert.addBindValue(r.parent);
    insert.addBindValue(r.actor);
    insert.addBindValue(r.runner);
    insert.addBindValue(r.startedAt);
    insert.addBindValue(r.durationMs);
    insert.addBindValue(r.material ? 1 : 0);
    insert.addBindValue(r.status);
    insert.addBindValue(r.contractFingerprint);
    insert.addBindValue(QString::fromUtf8(QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact)));
    return insert.exec() ? QString() : insert.lastError().text();
}

// Writes receipts [first, first + count) in one transaction, each signed with `key`
// (unsigned when it is null); returns an error message or "".
inline QString insert(QSqlDatabase db, int first, int count, int keyCount, const SigningKey &key = {})
{
    if (!db.transaction())
        return db.lastError().text();
    QSqlQuery insert(db);
    insert.prepare(
        QStringLiteral("INSERT INTO receipts (invocation_id, trace, key, parent, actor, runner, started_at, "
                       "duration_ms, material, status, contract_fingerprint, receipt_json) "
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
    constexpr int batch = 2000;
    std::vector<Receipt> receipts;
    for (int start = first; start < first + count; start += batch) {
        receipts.clear();
        for (int n = start; n < std::min(first + count, start + batch); ++n)
            receipts.push_back(receipt(n, keyCount));
        if (!key.isNull()) {
            QtConcurrent::blockingMap(receipts, [&key](Receipt &r) {
                r.signature = QString::fromLatin1(key.sign(r.signedBytes()).toBase64());
            });
        }
        for (const Receipt &r : receipts) {
            const QString error = appendReceipt(insert, r);
            if (!error.isEmpty()) {
                db.rollback();
                return error;
            }
        }
    }
    return db.commit() ? QString() : db.lastError().text();
}

} // namespace ReceiptFixture
