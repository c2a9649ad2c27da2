#include "server/directoryapi.h"

#include "dispatch/row/rowjsonfield.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/store/sqlitechangefeed.h"
#include "server/queryinteger.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

namespace {

// ISO-8601 UTC as the store writes it; anything else is not used as an entity tag.
const QRegularExpression kTimestamp(
    QStringLiteral("\\A[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z\\z"));

QJsonObject written(const WriteOutcome &outcome)
{
    return {{QStringLiteral("ok"), true},
            {QStringLiteral("key"), outcome.key},
            {QStringLiteral("updated_at"), outcome.updatedAt}};
}

// The first member RowJsonField refuses, as the 400 naming it (before anything is read
// or written); a PATCH's members outside the allow-list are dropped, not read.
std::optional<ServerReply> badField(const QJsonObject &object, bool patchableOnly)
{
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (patchableOnly && !RowSchema::patchableFields().contains(it.key()))
            continue;
        QString error;
        if (!RowJsonField::read(it.key(), it.value(), &error))
            return ServerReply::json(400,
                                     {{QStringLiteral("error"), error}, {QStringLiteral("field"), it.key()}});
    }
    return std::nullopt;
}

bool matchesQuery(const Row &row, const QString &needle)
{
    for (const QString *field : {&row.key, &row.target, &row.content, &row.category}) {
        if (field->contains(needle, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

ServerReply conflict(const QString &key, const QString &current)
{
    return ServerReply::json(
        412, {{QStringLiteral("error"), QStringLiteral("conflict")},
              {QStringLiteral("message"), QStringLiteral("%1 changed since it was read").arg(key)},
              {QStringLiteral("updated_at"), current}});
}

// One summary copied out of a scan, for a page.
struct Summary
{
    QByteArray key, type, category, target, updatedAt;
    bool enabled = true;
    bool sensitive = false;

    static Summary of(const RowSummaryView &view)
    {
        auto bytes = [](std::string_view text) { return QByteArray(text.data(), qsizetype(text.size())); };
        return {bytes(view.key),       bytes(view.type), bytes(view.category), bytes(view.target),
                bytes(view.updatedAt), view.enabled,     view.sensitive};
    }
    static Summary of(const RowSummary &summary)
    {
        return {summary.key.toUtf8(),    summary.type.toUtf8(),      summary.category.toUtf8(),
                summary.target.toUtf8(), summary.updatedAt.toUtf8(), summary.enabled,
                summary.sensitive};
    }
    // Written straight to JSON text: a page of 100,000 summaries built as QJsonObjects
    // costs the server seconds; as bytes, a small part of that.
    void appendJson(QByteArray *out) const
    {
        const std::pair<const char *, const QByteArray *> texts[] = {{"{\"key\":", &key},
                                                                     {",\"type\":", &type},
                                                                     {",\"category\":", &category},
                                                                     {",\"target\":", &target},
                                                                     {",\"updated_at\":", &updatedAt}};
        for (const auto &[name, value] : texts) {
            out->append(name);
            appendJsonString(*value, out);
        }
        out->append(enabled ? ",\"enabled\":1" : ",\"enabled\":0");
        out->append(sensitive ? ",\"sensitive\":1}" : ",\"sensitive\":0}");
    }

    // UTF-8 passes through; quotes, backslashes and control characters are escaped.
    static void appendJsonString(const QByteArray &text, QByteArray *out)
    {
        static const char hex[] = "0123456789abcdef";
        out->append('"');
        for (const char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                out->append('\\');
                out->append(c);
            } else if (byte < 0x20) {
                out->append("\\u00");
                out->append(hex[byte >> 4]);
                out->append(hex[byte & 0xf]);
            } else {
                out->append(c);
            }
        }
        out->append('"');
    }
};

QJsonObject summaryOf(const Row &row)
{
    return {{QStringLiteral("key"), row.key},
            {QStringLiteral("type"), row.type},
            {QStringLiteral("category"), row.category},
            {QStringLiteral("target"), row.target},
            {QStringLiteral("updated_at"), row.updatedAt},
            {QStringLiteral("enabled"), row.enabled ? 1 : 0},
            {QStringLiteral("sensitive"), row.sensitive ? 1 : 0}};
}

} // namespace

// The paging extension's parameters (not in SPEC §10; a client that does not send them
// gets SPEC's plain listing).
struct DirectoryApi::Paging
{
    // A page is at most this long, and starts at most this far in, so `offset + limit`
    // stays far inside qsizetype.
    static constexpr qint64 kMaxLimit = 1000000;
    static constexpr qint64 kMaxOffset = 1000000000;
    static constexpr qsizetype kMaxAfterBytes = 4096;

    qsizetype limit = 0; // 0: no limit
    qsizetype offset = 0;
    QByteArray after; // keys after this one (keyset paging, stable while rows come and go)
    bool summary = false;

    static std::optional<Paging> of(const QUrlQuery &query, QString *error)
    {
        const QStringList names{QStringLiteral("limit"), QStringLiteral("offset"), QStringLiteral("after"),
                                QStringLiteral("fields")};
        if (std::none_of(names.cbegin(), names.cend(),
                         [&](const QString &name) { return query.hasQueryItem(name); }))
            return std::nullopt;
        Paging paging;
        for (const auto &[name, maximum, value] :
             {std::tuple{QStringLiteral("limit"), kMaxLimit, &paging.limit},
              std::tuple{QStringLiteral("offset"), kMaxOffset, &paging.offset}}) {
            if (!query.hasQueryItem(name))
                continue;
            const std::optional<qint64> read = QueryInteger::read(query, name, 0, maximum, error);
            if (!read)
                return paging;
            *value = qsizetype(*read);
        }
        paging.after = query.queryItemValue(QStringLiteral("after"), QUrl::FullyDecoded).toUtf8();
        if (paging.after.size() > kMaxAfterBytes)
            *error = QStringLiteral("after is a key of at most %1 bytes").arg(kMaxAfterBytes);
        const QString fields = query.queryItemValue(QStringLiteral("fields"));
        paging.summary = fields == QLatin1String("summary");
        if (!fields.isEmpty() && !paging.summary)
            *error = QStringLiteral("fields is 'summary' or absent, not '%1'").arg(fields);
        return paging;
    }
};

namespace {

ServerReply pageReply(QJsonArray rows, qsizetype total)
{
    return ServerReply::json(200, {{QStringLiteral("rows"), rows}, {QStringLiteral("total"), double(total)}});
}

// RFC 9110 §13.1.2: "*" or a list of entity tags, weak ones compared weakly.
bool noneMatchHits(const QByteArray &ifNoneMatch, const QByteArray &etag)
{
    for (QByteArray candidate : ifNoneMatch.split(',')) {
        candidate = candidate.trimmed();
        if (candidate.startsWith("W/"))
            candidate = candidate.mid(2);
        if (candidate == "*" || candidate == etag)
            return true;
    }
    return false;
}

} // namespace

DirectoryApi::DirectoryApi(std::shared_ptr<DirectoryStore> store) : m_store(std::move(store))
{
    m_store->setActor(QStringLiteral("owner:terminal-key"));
}

ServerReply DirectoryApi::refusal(const StoreError &error)
{
    switch (error.kind) {
    case StoreError::Kind::NotFound:
        return ServerReply::error(404, error.message);
    case StoreError::Kind::AlreadyExists:
        return ServerReply::error(409, error.message);
    case StoreError::Kind::Conflict:
        return ServerReply::json(412, {{QStringLiteral("error"), QStringLiteral("conflict")},
                                       {QStringLiteral("message"), error.message}});
    case StoreError::Kind::Invalid:
        if (error.message == QLatin1String("no recognized fields"))
            return ServerReply::error(400, error.message);
        // The hygiene gate's refusals carry their findings; other rule breaks (a type
        // outside the CHECK list, a malformed value) only a message.
        if (!error.details.isEmpty())
            return ServerReply::json(422, {{QStringLiteral("error"), QStringLiteral("hygiene")},
                                           {QStringLiteral("findings"), error.details},
                                           {QStringLiteral("message"), error.message}});
        return ServerReply::error(422, error.message);
    // Only a server whose store is itself remote meets these two.
    case StoreError::Kind::Unauthorized:
        return ServerReply::error(401, QStringLiteral("unauthorized"));
    case StoreError::Kind::Unreachable:
        return ServerReply::error(502, error.message);
    case StoreError::Kind::None:
    case StoreError::Kind::NotDirectory:
    case StoreError::Kind::TooNew:
    case StoreError::Kind::Io:
    case StoreError::Kind::Cancelled:
        break;
    }
    return ServerReply::error(500, error.message);
}

StoreResult<std::optional<DirectoryApi::Version>> DirectoryApi::version() const
{
    const StoreResult<DirectoryChanges> baseline = m_store->changesSince(QByteArray());
    if (!baseline.ok())
        return baseline.error();
    const std::optional<qint64> seq = SqliteChangeFeed::eventSeqOf(baseline.value().cursor);
    if (!seq)
        return std::optional<Version>();
    const QByteArray hash = SqliteChangeFeed::eventHashOf(baseline.value().cursor);
    return std::optional<Version>(Version{*seq, '"' + QByteArray::number(*seq) + '-' + hash.left(16) + '"'});
}

ServerReply DirectoryApi::changesSince(const QUrlQuery &query) const
{
    QString error;
    const std::optional<qint64> since =
        QueryInteger::read(query, QStringLiteral("since_seq"), 0, std::numeric_limits<qint64>::max(), &error);
    if (!since)
        return ServerReply::error(400, error);
    for (const char *other : {"limit", "offset", "after", "category", "q"}) {
        if (query.hasQueryItem(QLatin1String(other)))
            return ServerReply::error(
                400, QStringLiteral("since_seq cannot be combined with %1").arg(QLatin1String(other)));
    }
    const QString fields = query.queryItemValue(QStringLiteral("fields"));
    if (query.hasQueryItem(QStringLiteral("fields")) && fields != QLatin1String("summary"))
        return ServerReply::error(
            400, QStringLiteral("since_seq answers summaries: fields is 'summary' or absent"));
    const StoreResult<DirectoryChanges> changes =
        m_store->changesSince(SqliteChangeFeed::cursorAtEvent(*since));
    if (!changes.ok())
        return refusal(changes.error());
    const std::optional<qint64> seq = SqliteChangeFeed::eventSeqOf(changes.value().cursor);
    if (!seq)
        return ServerReply::error(500, QStringLiteral("this directory publishes no change sequence"));
    ServerReply reply;
    QByteArray &out = reply.body;
    out.reserve(changes.value().changed.size() * 160 + changes.value().removed.size() * 40 + 96);
    out.append("{\"seq\":" + QByteArray::number(*seq)
               + ",\"complete\":" + (changes.value().complete ? "true" : "false") + ",\"rows\":[");
    for (const RowSummary &row : changes.value().changed) {
        if (out.back() == '}')
            out.append(',');
        Summary::of(row).appendJson(&out);
    }
    out.append("],\"removed\":[");
    for (const QString &key : changes.value().removed) {
        if (out.back() == '"')
            out.append(',');
        Summary::appendJsonString(key.toUtf8(), &out);
    }
    out.append("]}");
    return reply;
}

ServerReply DirectoryApi::list(const QUrlQuery &query, const QByteArray &ifNoneMatch) const
{
    if (query.hasQueryItem(QStringLiteral("since_seq")))
        return changesSince(query);
    QString error;
    const std::optional<Paging> paging = Paging::of(query, &error);
    if (!error.isEmpty())
        return ServerReply::error(400, error);
    const bool filtered =
        query.hasQueryItem(QStringLiteral("category")) || query.hasQueryItem(QStringLiteral("q"));
    if (paging && paging->summary && !filtered)
        return summaryPage(*paging);
    // Taken before the rows are read: a change in between makes the tag older than the
    // body, which costs the next request a 200, never a missed change.
    const StoreResult<std::optional<Version>> version =
        paging ? StoreResult<std::optional<Version>>(std::optional<Version>()) : this->version();
    if (!version.ok())
        return refusal(version.error());
    if (version.value() && !ifNoneMatch.isEmpty() && noneMatchHits(ifNoneMatch, version.value()->etag)) {
        ServerReply notModified;
        notModified.status = 304;
        notModified.headers.append({QByteArrayLiteral("ETag"), version.value()->etag});
        return notModified;
    }
    const StoreResult<QList<Row>> rows = m_store->allRows();
    if (!rows.ok())
        return refusal(rows.error());
    const QString category = query.queryItemValue(QStringLiteral("category"), QUrl::FullyDecoded);
    const QString needle = query.queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
    QList<const Row *> matching;
    for (const Row &row : rows.value()) {
        if ((category.isEmpty() || row.category == category)
            && (needle.isEmpty() || matchesQuery(row, needle)))
            matching.append(&row);
    }
    if (!paging) {
        QJsonArray out;
        for (const Row *row : std::as_const(matching))
            out.append(row->toJson());
        ServerReply reply = ServerReply::json(200, {{QStringLiteral("rows"), out}});
        if (version.value())
            reply.headers.append({QByteArrayLiteral("ETag"), version.value()->etag});
        return reply;
    }
    // Filtered or full-row pages: rare and small, so the plain way.
    std::sort(matching.begin(), matching.end(), [](const Row *a, const Row *b) { return a->key < b->key; });
    const QString after = QString::fromUtf8(paging->after);
    auto first = std::upper_bound(matching.cbegin(), matching.cend(), after,
                                  [](const QString &key, const Row *row) { return key < row->key; });
    if (after.isEmpty())
        first = matching.cbegin();
    const qsizetype skip = std::min<qsizetype>(paging->offset, matching.cend() - first);
    first += skip;
    const qsizetype count = paging->limit > 0 ? std::min<qsizetype>(paging->limit, matching.cend() - first)
                                              : matching.cend() - first;
    QJsonArray out;
    for (auto it = first; it != first + count; ++it)
        out.append(paging->summary ? summaryOf(**it) : (*it)->toJson());
    return pageReply(out, matching.size());
}

// One pass over the bulk summary scan: count every row and keep the `offset + limit`
// smallest keys after `after` in a bounded heap, so a page of a 100,000-row directory
// costs one sequential read and copies only the rows that may be on it.
ServerReply DirectoryApi::summaryPage(const Paging &paging) const
{
    const auto byKey = [](const Summary &a, const Summary &b) { return a.key < b.key; };
    std::priority_queue<Summary, std::vector<Summary>, decltype(byKey)> largestOnTop(byKey);
    std::vector<Summary> all;
    qsizetype keep = 0;
    if (paging.limit > 0 && qAddOverflow(paging.offset, paging.limit, &keep))
        return ServerReply::error(400, QStringLiteral("offset + limit is past any page"));
    qsizetype total = 0;
    const StoreResult<std::optional<Version>> version = this->version();
    if (!version.ok())
        return refusal(version.error());
    const StoreError error = m_store->scanSummaryViews([&](const RowSummaryView &view) {
        ++total;
        const std::string_view after(paging.after.constData(), std::size_t(paging.after.size()));
        if (!paging.after.isEmpty() && view.key <= after)
            return;
        if (keep == 0) {
            all.push_back(Summary::of(view));
        } else if (qsizetype(largestOnTop.size()) < keep) {
            largestOnTop.push(Summary::of(view));
        } else if (view.key < std::string_view(largestOnTop.top().key.constData(),
                                               std::size_t(largestOnTop.top().key.size()))) {
            largestOnTop.pop();
            largestOnTop.push(Summary::of(view));
        }
    });
    if (error.isError())
        return refusal(error);
    for (; !largestOnTop.empty(); largestOnTop.pop())
        all.push_back(largestOnTop.top());
    std::sort(all.begin(), all.end(), byKey);
    ServerReply reply;
    reply.body.reserve(qsizetype(all.size()) * 160 + 64);
    reply.body.append("{\"rows\":[");
    for (std::size_t i = std::size_t(std::min<qsizetype>(paging.offset, qsizetype(all.size())));
         i < all.size(); ++i) {
        if (reply.body.back() == '}')
            reply.body.append(',');
        all[i].appendJson(&reply.body);
    }
    reply.body.append("],\"total\":" + QByteArray::number(total));
    if (version.value())
        reply.body.append(",\"seq\":" + QByteArray::number(version.value()->seq));
    reply.body.append('}');
    return reply;
}

ServerReply DirectoryApi::get(const QString &key) const
{
    const StoreResult<Row> row = m_store->row(key);
    if (!row.ok())
        return refusal(row.error());
    ServerReply reply = ServerReply::json(200, row.value().toJson());
    // An imported row's updated_at is text someone else wrote; only a real timestamp
    // becomes a header, so no stored value can add a header line of its own.
    if (kTimestamp.match(row.value().updatedAt).hasMatch())
        reply.headers.append({QByteArrayLiteral("ETag"), '"' + row.value().updatedAt.toUtf8() + '"'});
    return reply;
}

ServerReply DirectoryApi::create(const QByteArray &body)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    return createFrom(object);
}

ServerReply DirectoryApi::createFrom(const QJsonObject &object)
{
    if (auto bad = badField(object, false))
        return *bad;
    if (object.value(QStringLiteral("key")).toString().isEmpty()
        || object.value(QStringLiteral("type")).toString().isEmpty())
        return ServerReply::error(400, QStringLiteral("key and type are required"));
    QString error;
    const std::optional<Row> row = Row::fromJson(object, &error);
    if (!row)
        return ServerReply::error(400, error);
    const StoreResult<WriteOutcome> outcome = m_store->create(*row);
    return outcome.ok() ? ServerReply::json(201, written(outcome.value())) : refusal(outcome.error());
}

ServerReply DirectoryApi::replace(const QString &key, const QByteArray &body, const QString &ifMatch)
{
    QJsonObject object;
    if (auto bad = ServerReply::readObject(body, &object))
        return *bad;
    if (auto bad = badField(object, false))
        return *bad;
    const QString named = object.value(QStringLiteral("key")).toString();
    if (!named.isEmpty() && named != key)
        return ServerReply::error(
            400, QStringLiteral("the body names key %1 but the path names %2").arg(named, key));
    object.insert(QStringLiteral("key"), key);
    QString error;
    std::optional<Row> row = Row::fromJson(object, &error);
    if (!row)
        return ServerReply::error(400, error);
    const StoreResult<Row> current = m_store->row(key);
    if (!current.ok() && current.error().kind == StoreError::Kind::NotFound) {
        // RFC 9110 §13.1.1: If-Match names a version, and there is none.
        if (!ifMatch.isEmpty())
            return conflict(key, QString());
        return createFrom(object);
    }
    if (!current.ok())
        return refusal(current.error());
    // SPEC §7 and §10: a replace cannot widen a token's reach, so these keep what is stored,
    // exactly as PATCH refuses to change them. The row replaced is the row they came from:
    // without the client's If-Match, its updated_at stands in.
    row->sensitive = current.value().sensitive;
    row->runner = current.value().runner;
    const QString expected = ifMatch.isEmpty() ? current.value().updatedAt : ifMatch;
    const StoreResult<WriteOutcome> outcome = m_store->replace(*row, expected);
    if (!outcome.ok() && outcome.error().kind == StoreError::Kind::Conflict)
        return conflict(key, currentUpdatedAt(key));
    if (!outcome.ok())
        return refusal(outcome.error());
    QJsonObject answer = written(outcome.value());
    answer.insert(QStringLiteral("kept"), QJsonArray{QStringLiteral("runner"), QStringLiteral("sensitive")});
    return ServerReply::json(200, answer);
}

ServerReply DirectoryApi::patch(const QString &key, const QByteArray &body, const QString &ifMatch)
{
    QJsonObject fields;
    if (auto bad = ServerReply::readObject(body, &fields))
        return *bad;
    if (auto bad = badField(fields, true))
        return *bad;
    // Judged inside the store's write: another server on the same database (or the GUI on
    // the same file) may write between any read here and the patch.
    const StoreResult<WriteOutcome> outcome = m_store->patch(key, fields, ifMatch);
    if (!outcome.ok() && outcome.error().kind == StoreError::Kind::Conflict)
        return conflict(key, currentUpdatedAt(key));
    return outcome.ok() ? ServerReply::json(200, written(outcome.value())) : refusal(outcome.error());
}

ServerReply DirectoryApi::remove(const QString &key, const QString &ifMatch)
{
    const StoreError error = m_store->remove(key, ifMatch);
    if (error.kind == StoreError::Kind::Conflict)
        return conflict(key, currentUpdatedAt(key));
    if (error.isError())
        return refusal(error);
    return ServerReply::json(
        200, {{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}});
}

QString DirectoryApi::currentUpdatedAt(const QString &key) const
{
    const StoreResult<Row> row = m_store->row(key);
    return row.ok() ? row.value().updatedAt : QString();
}
