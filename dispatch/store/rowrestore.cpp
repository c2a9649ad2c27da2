#include "dispatch/store/rowrestore.h"

using namespace Qt::StringLiterals;

namespace RowRestore {

StoreResult<Row> version(const QList<LogEvent> &events, const QString &key, qint64 seq)
{
    for (const LogEvent &event : events) {
        if (event.seq == seq && event.key == key)
            return versionOf(event);
    }
    return StoreError::make(StoreError::Kind::NotFound, u"%1 has no saved version #%2"_s.arg(key).arg(seq));
}

StoreResult<Row> versionOf(const LogEvent &event)
{
    if (!event.after.isObject())
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"version #%1 of %2 is its %3: there is no row to put back"_s.arg(event.seq).arg(event.key,
                                                                                             event.action));
    QString error;
    const std::optional<Row> row = Row::fromJson(event.after.toObject(), &error);
    if (!row)
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"version #%1 of %2 cannot be read back: %3"_s.arg(event.seq).arg(event.key, error));
    if (row->key != event.key)
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"version #%1 is a row of %2, not of %3"_s.arg(event.seq).arg(row->key, event.key));
    return *row;
}

Row onto(const Row &current, const Row &version)
{
    Row restored = version;
    restored.updatedAt = current.updatedAt;
    restored.createdAt = current.createdAt;
    return restored;
}

} // namespace RowRestore
