#include "remote/remotedirectorystore.h"

#include "dispatch/row/rowschema.h"
#include "dispatch/row/rowvalidator.h"
#include "remote/remotechangecursor.h"
#include "remote/rowpatch.h"
#include "remote/serverconnection.h"
#include "remote/servererrors.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QMutexLocker>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <cmath>

using Kind = StoreError::Kind;

namespace {

QString encoded(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

QString rowPath(const QString &key)
{
    return QStringLiteral("/api/directory/") + encoded(key);
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

StoreResult<QJsonObject> objectOf(const ServerResponse &response, const QString &location)
{
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(response.body, &parse);
    if (!document.isObject())
        return StoreError::make(Kind::Io,
                                QStringLiteral("server %1 answered %2 %3 with no JSON object")
                                    .arg(location, QString::fromLatin1(response.method), response.path));
    return document.object();
}

// A server may add members of its own (an id, a revision); the row keeps its columns.
// Its values are read as its database stored them (a NULL `enabled` is the default, a
// true is 1), not with the strictness a request body gets: a production server's rows
// must stay readable.
StoreResult<Row> rowOf(const QJsonObject &object)
{
    Row row;
    for (const QString &column : RowSchema::columns()) {
        QString error;
        if (object.contains(column) && !row.setValue(column, object.value(column).toVariant(), &error))
            return StoreError::make(Kind::Io,
                                    QStringLiteral("the server sent a row that cannot be read: ") + error);
    }
    return row;
}

bool flag(const QJsonValue &value, bool absent)
{
    if (value.isBool())
        return value.toBool();
    if (value.isDouble())
        return value.toDouble() != 0;
    return absent;
}

// One summary from a row object (full or summary-only), its UTF-8 alive for the sink's call.
void deliverSummary(const QJsonObject &object, const std::function<void(const RowSummaryView &)> &sink)
{
    const QByteArray key = object.value(QLatin1String("key")).toString().toUtf8();
    const QByteArray type = object.value(QLatin1String("type")).toString().toUtf8();
    const QByteArray category = object.value(QLatin1String("category")).toString().toUtf8();
    const QByteArray target = object.value(QLatin1String("target")).toString().toUtf8();
    const QByteArray updatedAt = object.value(QLatin1String("updated_at")).toString().toUtf8();
    auto view = [](const QByteArray &bytes) {
        return std::string_view(bytes.constData(), std::size_t(bytes.size()));
    };
    sink({view(key), view(type), view(category), view(target), view(updatedAt),
          flag(object.value(QLatin1String("enabled")), true),
          flag(object.value(QLatin1String("sensitive")), false)});
}

QJsonArray rowsIn(const QJsonObject &listing)
{
    return listing.value(QLatin1String("rows")).toArray();
}

// The body of a create: the server stamps the times itself.
QJsonObject newRowObject(const Row &row)
{
    QJsonObject object = row.toJson();
    object.remove(QStringLiteral("updated_at"));
    object.remove(QStringLiteral("created_at"));
    return object;
}

RowSummary summaryOf(const QJsonObject &object)
{
    RowSummary summary;
    summary.key = object.value(QLatin1String("key")).toString();
    summary.type = object.value(QLatin1String("type")).toString();
    summary.category = object.value(QLatin1String("category")).toString();
    summary.target = object.value(QLatin1String("target")).toString();
    summary.updatedAt = object.value(QLatin1String("updated_at")).toString();
    summary.enabled = flag(object.value(QLatin1String("enabled")), true);
    summary.sensitive = flag(object.value(QLatin1String("sensitive")), false);
    return summary;
}

// A row without a key cannot be told from any other; such an entry is left out.
QList<RowSummary> summariesIn(const QJsonArray &rows)
{
    QList<RowSummary> summaries;
    summaries.reserve(rows.size());
    for (const QJsonValue &row : rows) {
        RowSummary summary = summaryOf(row.toObject());
        if (!summary.key.isEmpty())
            summaries.append(std::move(summary));
    }
    return summaries;
}

// The change sequence an answer of ours carries: a whole number JSON can hold exactly.
std::optional<qint64> sequenceIn(const QJsonObject &answer)
{
    const QJsonValue seq = answer.value(QLatin1String("seq"));
    if (!seq.isDouble())
        return std::nullopt;
    const double value = seq.toDouble();
    if (value < 0 || value > 9007199254740992.0 || std::floor(value) != value)
        return std::nullopt;
    return qint64(value);
}

// What identifies a plain server's listing: its ETag, if any and not too long to keep,
// and the digest of its bytes.
RemoteChangeCursor listingCursorOf(const ServerResponse &response)
{
    QByteArray etag = response.header(QByteArrayLiteral("ETag"));
    if (etag.size() > RemoteChangeCursor::kMaxETagBytes)
        etag.clear();
    return RemoteChangeCursor::listing(etag,
                                       QCryptographicHash::hash(response.body, QCryptographicHash::Sha256));
}

DirectoryChanges unchangedAt(const RemoteChangeCursor &cursor)
{
    DirectoryChanges changes;
    changes.cursor = cursor.text();
    changes.unchanged = true;
    return changes;
}

QString keysText(const QStringList &keys)
{
    return keys.isEmpty() ? QStringLiteral("none") : keys.join(QStringLiteral(", "));
}

} // namespace

RemoteDirectoryStore::RemoteDirectoryStore(std::shared_ptr<ServerConnection> connection)
    : m_connection(std::move(connection))
{}

RemoteDirectoryStore::~RemoteDirectoryStore() = default;

QString RemoteDirectoryStore::location() const
{
    return m_connection->location();
}

void RemoteDirectoryStore::setActor(const QString &actor)
{
    m_actor = actor;
}

QString RemoteDirectoryStore::actor() const
{
    return m_actor;
}

StoreError RemoteDirectoryStore::failure(const ServerResponse &response) const
{
    StoreError error = ServerErrors::fromResponse(response, location());
    if (error.kind == Kind::Unauthorized && m_connection->endpoint().ownerKey.isEmpty())
        error.message = QStringLiteral("the server wants an owner key and none was given");
    return error;
}

StoreError RemoteDirectoryStore::scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                                  int firstByKey) const
{
    if (firstByKey <= 0) {
        QMutexLocker lock(&m_cacheMutex);
        if (std::optional<QByteArray> cached = std::exchange(m_unpagedBody, std::nullopt)) {
            lock.unlock();
            for (const QJsonValue &row : rowsIn(QJsonDocument::fromJson(*cached).object()))
                deliverSummary(row.toObject(), sink);
            return StoreError::none();
        }
    }
    const int pageRows = firstByKey > 0 ? firstByKey : kPageRows;
    QString after;
    for (;;) {
        QString path = QStringLiteral("/api/directory?fields=summary&limit=%1").arg(pageRows);
        if (!after.isEmpty())
            path += QStringLiteral("&after=") + encoded(after);
        const ServerResponse response = m_connection->send(QByteArrayLiteral("GET"), path);
        if (const StoreError error = failure(response); error.isError())
            return error;
        const StoreResult<QJsonObject> listing = objectOf(response, location());
        if (!listing.ok())
            return listing.error();
        const QJsonArray rows = rowsIn(listing.value());
        if (!listing.value().contains(QLatin1String("total"))) {
            // The server ignored the paging: these are all rows, in its order.
            if (firstByKey <= 0) {
                for (const QJsonValue &row : rows)
                    deliverSummary(row.toObject(), sink);
                return StoreError::none();
            }
            QList<QJsonObject> sorted;
            sorted.reserve(rows.size());
            for (const QJsonValue &row : rows)
                sorted.append(row.toObject());
            const auto byKey = [](const QJsonObject &a, const QJsonObject &b) {
                return a.value(QLatin1String("key")).toString() < b.value(QLatin1String("key")).toString();
            };
            const qsizetype first = std::min<qsizetype>(firstByKey, sorted.size());
            std::partial_sort(sorted.begin(), sorted.begin() + first, sorted.end(), byKey);
            for (qsizetype i = 0; i < first; ++i)
                deliverSummary(sorted.at(i), sink);
            QMutexLocker lock(&m_cacheMutex);
            m_unpagedBody = response.body;
            return StoreError::none();
        }
        for (const QJsonValue &row : rows)
            deliverSummary(row.toObject(), sink);
        if (firstByKey > 0 || rows.size() < pageRows)
            return StoreError::none();
        after = rows.last().toObject().value(QLatin1String("key")).toString();
    }
}

StoreResult<QList<Row>> RemoteDirectoryStore::listRows(const QString &query) const
{
    const ServerResponse response =
        m_connection->send(QByteArrayLiteral("GET"), QStringLiteral("/api/directory") + query);
    if (const StoreError error = failure(response); error.isError())
        return error;
    const StoreResult<QJsonObject> listing = objectOf(response, location());
    if (!listing.ok())
        return listing.error();
    QList<Row> rows;
    const QJsonArray objects = rowsIn(listing.value());
    rows.reserve(objects.size());
    for (const QJsonValue &object : objects) {
        StoreResult<Row> row = rowOf(object.toObject());
        if (!row.ok())
            return row.error();
        rows.append(std::move(row.value()));
    }
    return rows;
}

StoreError RemoteDirectoryStore::missing(const QString &key) const
{
    return StoreError::make(Kind::NotFound, QStringLiteral("no row '%1' on %2").arg(key, location()));
}

// A key no row can have is answered here: sent, it would name another route ("" is the
// listing itself) and the answer would be misread.
StoreError RemoteDirectoryStore::invalidKey(const Row &row)
{
    return StoreError::make(Kind::Invalid,
                            RowValidator::describe(RowValidator::checkFields(row, {QStringLiteral("key")})));
}

StoreResult<Row> RemoteDirectoryStore::row(const QString &key) const
{
    if (!RowValidator::isValidKey(key))
        return missing(key);
    const ServerResponse response = m_connection->send(QByteArrayLiteral("GET"), rowPath(key));
    if (response.status == 404)
        return missing(key);
    if (const StoreError error = failure(response); error.isError())
        return error;
    const StoreResult<QJsonObject> object = objectOf(response, location());
    if (!object.ok())
        return object.error();
    StoreResult<Row> read = rowOf(object.value());
    if (read.ok()) {
        if (!response.header(QByteArrayLiteral("ETag")).isEmpty()) {
            QMutexLocker lock(&m_cacheMutex);
            m_serverChecksIfMatch = true;
        }
        remember(read.value());
    }
    return read;
}

std::optional<Row> RemoteDirectoryStore::knownAt(const QString &key, const QString &updatedAt) const
{
    QMutexLocker lock(&m_cacheMutex);
    const auto known = m_known.constFind(key);
    if (!m_serverChecksIfMatch || updatedAt.isEmpty() || known == m_known.constEnd()
        || known->updatedAt != updatedAt)
        return std::nullopt;
    return *known;
}

void RemoteDirectoryStore::remember(const Row &row) const
{
    constexpr qsizetype kKnownRows = 4096;
    QMutexLocker lock(&m_cacheMutex);
    if (m_known.size() >= kKnownRows)
        m_known.clear();
    m_known.insert(row.key, row);
}

void RemoteDirectoryStore::forget(const QString &key) const
{
    QMutexLocker lock(&m_cacheMutex);
    m_known.remove(key);
}

StoreResult<QList<Row>> RemoteDirectoryStore::allRows() const
{
    return listRows(QString());
}

StoreResult<QList<Row>> RemoteDirectoryStore::rows(const QStringList &keys) const
{
    // A handful of keys costs a request each; more than that, one listing is cheaper.
    constexpr int kSingleFetches = 32;
    if (keys.size() > kSingleFetches) {
        StoreResult<QList<Row>> all = allRows();
        if (!all.ok())
            return all;
        const QSet<QString> wanted(keys.cbegin(), keys.cend());
        QList<Row> found;
        for (Row &row : all.value()) {
            if (wanted.contains(row.key))
                found.append(std::move(row));
        }
        return found;
    }
    QList<Row> found;
    for (const QString &key : QSet<QString>(keys.cbegin(), keys.cend())) {
        StoreResult<Row> one = row(key);
        if (one.ok())
            found.append(std::move(one.value()));
        else if (one.error().kind != Kind::NotFound)
            return one.error();
    }
    return found;
}

StoreResult<QStringList> RemoteDirectoryStore::keysWithContent(const QString &needle) const
{
    // ?q= matches more fields than content (key, target, category): narrow it here.
    const StoreResult<QList<Row>> candidates = listRows(QStringLiteral("?q=") + encoded(needle));
    if (!candidates.ok())
        return candidates.error();
    QStringList keys;
    for (const Row &row : candidates.value()) {
        if (row.content.contains(needle, Qt::CaseInsensitive))
            keys.append(row.key);
    }
    return keys;
}

StoreResult<QList<AuthUsage>> RemoteDirectoryStore::authUsage() const
{
    const StoreResult<QList<Row>> all = allRows();
    if (!all.ok())
        return all.error();
    QMap<QString, int> counts;
    for (const Row &row : all.value()) {
        if (!row.auth.trimmed().isEmpty())
            ++counts[row.auth];
    }
    QList<AuthUsage> usage;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        usage.append({it.key(), it.value()});
    return usage;
}

StoreResult<WriteOutcome> RemoteDirectoryStore::writeAnswer(const ServerResponse &response,
                                                            const QString &key, bool created) const
{
    forget(key);
    if (const StoreError error = failure(response); error.isError())
        return error;
    forgetCachedRows();
    const QJsonObject object = QJsonDocument::fromJson(response.body).object();
    WriteOutcome outcome;
    outcome.key = object.value(QLatin1String("key")).toString(key);
    outcome.updatedAt = object.value(QLatin1String("updated_at")).toString();
    outcome.created = created;
    return outcome;
}

StoreResult<WriteOutcome> RemoteDirectoryStore::create(Row row)
{
    if (!RowValidator::isValidKey(row.key))
        return invalidKey(row);
    const ServerResponse response = m_connection->send(
        QByteArrayLiteral("POST"), QStringLiteral("/api/directory"), compact(newRowObject(row)));
    return writeAnswer(response, row.key, true);
}

StoreResult<Row> RemoteDirectoryStore::currentFor(const QString &key, const QString &expectedUpdatedAt) const
{
    StoreResult<Row> current = row(key);
    if (!current.ok() || expectedUpdatedAt.isEmpty() || current.value().updatedAt == expectedUpdatedAt)
        return current;
    return StoreError::make(Kind::Conflict,
                            QStringLiteral("%1 changed on the server since it was read (read %2, now %3)")
                                .arg(key, expectedUpdatedAt, current.value().updatedAt),
                            QJsonArray{current.value().toJson()});
}

// A 412 names the change but not the row; the merge needs their row, so read it.
StoreError RemoteDirectoryStore::conflictAfter412(const QString &key) const
{
    const StoreResult<Row> theirs = row(key);
    if (!theirs.ok())
        return StoreError::make(
            Kind::Conflict,
            QStringLiteral("%1 changed on the server since it was read; it is now gone").arg(key));
    return StoreError::make(Kind::Conflict,
                            QStringLiteral("%1 changed on the server since it was read (now %2)")
                                .arg(key, theirs.value().updatedAt),
                            QJsonArray{theirs.value().toJson()});
}

StoreResult<WriteOutcome> RemoteDirectoryStore::replace(Row row, const QString &expectedUpdatedAt)
{
    const std::optional<Row> known = knownAt(row.key, expectedUpdatedAt);
    const StoreResult<Row> current =
        known ? StoreResult<Row>(*known) : currentFor(row.key, expectedUpdatedAt);
    if (!current.ok())
        return current.error();
    if (!RowPatch::lockedChanges(current.value(), row).isEmpty())
        return StoreError::make(Kind::Invalid, RowPatch::lockedReason());
    const QJsonObject fields = RowPatch::changedFields(current.value(), row);
    if (fields.isEmpty())
        return WriteOutcome{row.key, current.value().updatedAt, false};
    const ServerResponse response =
        m_connection->send(QByteArrayLiteral("PATCH"), rowPath(row.key), compact(fields),
                           {{QByteArrayLiteral("If-Match"), current.value().updatedAt.toUtf8()}});
    if (response.status == 412)
        return conflictAfter412(row.key);
    StoreResult<WriteOutcome> outcome = writeAnswer(response, row.key, false);
    if (outcome.ok() && !outcome.value().updatedAt.isEmpty()) {
        // A PATCH changes only the fields it names, so the row now is ours at the new stamp.
        row.updatedAt = outcome.value().updatedAt;
        row.createdAt = current.value().createdAt;
        remember(row);
    } else {
        forget(row.key);
    }
    return outcome;
}

StoreResult<WriteOutcome> RemoteDirectoryStore::put(Row row)
{
    if (!RowValidator::isValidKey(row.key))
        return invalidKey(row);
    // SPEC §10's PUT creates a free key (201) or replaces, keeping the stored sensitive
    // and runner. A server from before PUT created answers a free key 404.
    const ServerResponse answer =
        m_connection->send(QByteArrayLiteral("PUT"), rowPath(row.key), compact(newRowObject(row)));
    if (answer.status != 404)
        return writeAnswer(answer, row.key, answer.status == 201);
    return create(std::move(row));
}

StoreResult<WriteOutcome> RemoteDirectoryStore::patch(const QString &key, const QJsonObject &fields,
                                                      const QString &expectedUpdatedAt)
{
    if (!RowValidator::isValidKey(key))
        return missing(key);
    if (expectedUpdatedAt.isEmpty())
        return writeAnswer(m_connection->send(QByteArrayLiteral("PATCH"), rowPath(key), compact(fields)), key,
                           false);
    // A server that ignores If-Match still gets the check, one read before the write.
    if (!knownAt(key, expectedUpdatedAt)) {
        const StoreResult<Row> current = currentFor(key, expectedUpdatedAt);
        if (!current.ok())
            return current.error();
    }
    const ServerResponse response =
        m_connection->send(QByteArrayLiteral("PATCH"), rowPath(key), compact(fields),
                           {{QByteArrayLiteral("If-Match"), expectedUpdatedAt.toUtf8()}});
    forget(key);
    if (response.status == 412)
        return conflictAfter412(key);
    return writeAnswer(response, key, false);
}

StoreError RemoteDirectoryStore::remove(const QString &key, const QString &expectedUpdatedAt)
{
    if (!RowValidator::isValidKey(key))
        return missing(key);
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (!expectedUpdatedAt.isEmpty() && !knownAt(key, expectedUpdatedAt)) {
        const StoreResult<Row> current = currentFor(key, expectedUpdatedAt);
        if (!current.ok())
            return current.error();
    }
    if (!expectedUpdatedAt.isEmpty()) {
        headers.append({QByteArrayLiteral("If-Match"), expectedUpdatedAt.toUtf8()});
    }
    const ServerResponse response =
        m_connection->send(QByteArrayLiteral("DELETE"), rowPath(key), {}, headers);
    forget(key);
    if (response.status == 412)
        return conflictAfter412(key);
    if (const StoreError error = failure(response); error.isError())
        return error;
    forgetCachedRows();
    return StoreError::none();
}

StoreError RemoteDirectoryStore::importRows(const QList<Row> &rows)
{
    // Refuse what the local store refuses, before anything is written.
    QSet<QString> keys;
    for (const Row &row : rows) {
        if (keys.contains(row.key))
            return StoreError::make(Kind::AlreadyExists,
                                    QStringLiteral("%1 appears twice in the import").arg(row.key));
        keys.insert(row.key);
    }
    const StoreResult<QList<Row>> taken = this->rows(QStringList(keys.cbegin(), keys.cend()));
    if (!taken.ok())
        return taken.error();
    if (!taken.value().isEmpty())
        return StoreError::make(Kind::AlreadyExists,
                                QStringLiteral("%1 already exists on %2; nothing was imported")
                                    .arg(taken.value().first().key, location()));
    ChangeSet creates;
    for (const Row &row : rows)
        creates.append(RowChange::create(row));
    return apply(creates);
}

StoreResult<WriteOutcome> RemoteDirectoryStore::applyOne(const RowChange &change)
{
    switch (change.kind) {
    case RowChange::Kind::Create:
        return create(change.row);
    case RowChange::Kind::Replace:
        return replace(change.row, change.expectedUpdatedAt);
    case RowChange::Kind::Delete:
        if (StoreError error = remove(change.key, change.expectedUpdatedAt); error.isError())
            return error;
        return WriteOutcome{change.key, {}, false};
    }
    return WriteOutcome{};
}

StoreError RemoteDirectoryStore::apply(const ChangeSet &changes)
{
    ApplyTracking tracking;
    return applyTracked(changes, tracking);
}

StoreError RemoteDirectoryStore::applyTracked(const ChangeSet &changes, ApplyTracking &tracking)
{
    QStringList written;
    for (qsizetype i = 0; i < changes.size(); ++i) {
        const RowChange &change = changes.at(i);
        const QString key = change.kind == RowChange::Kind::Delete ? change.key : change.row.key;
        StoreError error;
        if (tracking.cancelled) {
            error = StoreError::make(Kind::Cancelled,
                                     QStringLiteral("the save was cancelled before it was sent"));
        } else {
            StoreResult<WriteOutcome> outcome = applyOne(change);
            if (outcome.ok()) {
                written.append(key);
                tracking.written.append(outcome.value());
                continue;
            }
            error = outcome.error();
        }
        if (changes.size() == 1)
            return error;
        QStringList notWritten;
        for (qsizetype j = i + 1; j < changes.size(); ++j) {
            const RowChange &rest = changes.at(j);
            notWritten.append(rest.kind == RowChange::Kind::Delete ? rest.key : rest.row.key);
        }
        // A server writes one row per request, so earlier rows stay written: say which.
        error.message =
            QStringLiteral("%1: %2 (a server takes one row per request, so this was not all-or-nothing; "
                           "written: %3; not written: %4)")
                .arg(key, error.message, keysText(written), keysText(notWritten));
        return error;
    }
    return StoreError::none();
}

void RemoteDirectoryStore::forgetCachedRows() const
{
    QMutexLocker lock(&m_cacheMutex);
    m_unpagedBody.reset();
}

int RemoteDirectoryStore::changePollIntervalMs() const
{
    if (const int chosen = m_connection->endpoint().changePollIntervalMs; chosen > 0)
        return chosen;
    return m_feedKind == FeedKind::Listing ? 60000 : 5000;
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::changesSince(const QByteArray &cursor) const
{
    if (cursor.isEmpty())
        return baseline();
    const std::optional<RemoteChangeCursor> since = RemoteChangeCursor::parse(cursor);
    if (!since)
        return everything();
    if (since->kind == RemoteChangeCursor::Kind::Sequence && m_feedKind != FeedKind::Listing)
        return sequenceChanges(since->seq);
    return listingChanges(since->kind == RemoteChangeCursor::Kind::Listing ? *since : RemoteChangeCursor());
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::baseline() const
{
    // A plain server sends its whole listing whatever is asked; on ours one summary is
    // the cheapest answer that carries the sequence.
    const bool plain = m_feedKind == FeedKind::Listing;
    ServerResponse response = m_connection->send(
        QByteArrayLiteral("GET"),
        plain ? QStringLiteral("/api/directory") : QStringLiteral("/api/directory?fields=summary&limit=1"));
    if (response.status == 400 && !plain) {
        // A server that refuses parameters it does not know.
        m_feedKind = FeedKind::Listing;
        response = m_connection->send(QByteArrayLiteral("GET"), QStringLiteral("/api/directory"));
    }
    if (const StoreError error = failure(response); error.isError())
        return error;
    const StoreResult<QJsonObject> answer = objectOf(response, location());
    if (!answer.ok())
        return answer.error();
    if (const std::optional<qint64> seq = sequenceIn(answer.value())) {
        m_feedKind = FeedKind::Sequence;
        return unchangedAt(RemoteChangeCursor::sequence(*seq));
    }
    m_feedKind = FeedKind::Listing;
    return unchangedAt(listingCursorOf(response));
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::sequenceChanges(qint64 since) const
{
    const ServerResponse response = m_connection->send(
        QByteArrayLiteral("GET"), QStringLiteral("/api/directory?since_seq=%1&fields=summary").arg(since));
    if (response.status == 400 && m_feedKind != FeedKind::Sequence) {
        m_feedKind = FeedKind::Listing;
        return listingChanges(RemoteChangeCursor());
    }
    if (const StoreError error = failure(response); error.isError())
        return error;
    const StoreResult<QJsonObject> answer = objectOf(response, location());
    if (!answer.ok())
        return answer.error();
    const std::optional<qint64> seq = sequenceIn(answer.value());
    if (!seq) {
        // The server ignored since_seq, so this is its plain listing: every row.
        m_feedKind = FeedKind::Listing;
        return completeListing(response);
    }
    m_feedKind = FeedKind::Sequence;
    DirectoryChanges changes;
    changes.cursor = RemoteChangeCursor::sequence(*seq).text();
    changes.complete = answer.value().value(QLatin1String("complete")).toBool();
    changes.changed = summariesIn(rowsIn(answer.value()));
    if (!changes.complete) {
        for (const QJsonValue &key : answer.value().value(QLatin1String("removed")).toArray()) {
            if (!key.toString().isEmpty())
                changes.removed.append(key.toString());
        }
    }
    changes.unchanged = !changes.complete && changes.changed.isEmpty() && changes.removed.isEmpty();
    return changes;
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::listingChanges(const RemoteChangeCursor &since) const
{
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (!since.etag.isEmpty())
        headers.append({QByteArrayLiteral("If-None-Match"), since.etag});
    const ServerResponse response =
        m_connection->send(QByteArrayLiteral("GET"), QStringLiteral("/api/directory"), {}, headers);
    if (response.status == 304 && !since.etag.isEmpty())
        return unchangedAt(since);
    if (const StoreError error = failure(response); error.isError())
        return error;
    // Without an ETag, the same bytes as last time still save the caller a whole listing.
    const RemoteChangeCursor now = listingCursorOf(response);
    if (!since.digest.isEmpty() && now.digest == since.digest)
        return unchangedAt(now);
    return completeListing(response);
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::completeListing(const ServerResponse &response) const
{
    const StoreResult<QJsonObject> listing = objectOf(response, location());
    if (!listing.ok())
        return listing.error();
    DirectoryChanges changes;
    changes.cursor = listingCursorOf(response).text();
    changes.complete = true;
    changes.changed = summariesIn(rowsIn(listing.value()));
    return changes;
}

StoreResult<DirectoryChanges> RemoteDirectoryStore::everything() const
{
    if (m_feedKind != FeedKind::Listing) {
        // The baseline tells the kinds apart and gives ours the sequence to go on from.
        const StoreResult<DirectoryChanges> start = baseline();
        if (!start.ok())
            return start;
        if (m_feedKind == FeedKind::Sequence) {
            DirectoryChanges changes;
            changes.cursor = start.value().cursor;
            changes.complete = true;
            const StoreError error = scanSummaryViews(
                [&](const RowSummaryView &view) { changes.changed.append(RowSummary::of(view)); });
            if (error.isError())
                return error;
            return changes;
        }
    }
    return listingChanges(RemoteChangeCursor());
}
