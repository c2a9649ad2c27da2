#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

// One entry of the append-only event log (SPEC §8). `kind` is what happened:
//   DIRECTORY_MUTATE   action create|replace|patch|delete|import|restore, key, before/after
//                      rows; a restore's detail {restores_seq}: the event whose `after`
//                      it put back
//   CAPABILITY_REFUSED action invoke, key, detail {token_id, reason}
//   TOKEN_CREATED      action create, detail {token_id, label, …} (never the token value)
//   TOKEN_REVOKED      action revoke, detail {token_id}
//   DIRECTORY_OUTSIDE_WRITE action detect, detail {row_writes}: rows written outside the
//                      log (plain SQL), found by the change feed (SqliteChangeFeed)
//   RECEIPTS_ARCHIVED  action archive, detail {archive_id, file (its name), before,
//                      receipt_count, lines_sha256, ranges}: receipts moved out into a segment file
//                      (ReceiptArchiver)
// `before`/`after` are row objects (RowJsonCodec form) or null. The log fills seq, at,
// prevHash and hash when it appends.
struct LogEvent
{
    qint64 seq = 0;
    QString kind;
    QString action;
    QString key; // null when the event concerns no row
    QString actor; // owner:local, owner:terminal-key, token:<id>, …
    QString at; // ISO-8601 UTC with milliseconds
    QJsonValue before = QJsonValue::Null;
    QJsonValue after = QJsonValue::Null;
    QJsonObject detail;
    QString prevHash;
    QString hash;
};
