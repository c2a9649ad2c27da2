#include "directoryimporter.h"

#include "utf8text.h"

#include "rowbatchcheck.h"
#include "rowjsoncodec.h"
#include "sqldumpreader.h"

#include <QFile>
#include <QSet>

#include <algorithm>
#include <cctype>

namespace {

StoreResult<QSet<QString>> keysInStore(const DirectoryStore &store)
{
    QSet<QString> keys;
    const StoreError error = store.scanSummaryViews([&keys](const RowSummaryView &summary) {
        keys.insert(QString::fromUtf8(summary.key.data(), qsizetype(summary.key.size())));
    });
    if (error.isError())
        return error;
    return keys;
}

} // namespace

StoreResult<int> DirectoryImporter::importBytes(DirectoryStore &store, const QByteArray &bytes)
{
    const StoreError encoding = Utf8Text::check(bytes);
    if (encoding.isError())
        return encoding;
    // A byte-order mark is legal UTF-8 but no part of the rows.
    const QByteArray text = bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes;

    QList<int> lines;
    const auto first =
        std::find_if(text.cbegin(), text.cend(), [](char c) { return !std::isspace(uchar(c)); });
    if (first != text.cend() && *first == '{')
        return StoreError::make(StoreError::Kind::Invalid,
                                QStringLiteral("line 1: expected a JSON array of rows ([…]), got a single object"));
    const bool isJson = first != text.cend() && *first == '[';
    StoreResult<QList<Row>> rows =
        isJson ? RowJsonCodec::decode(text, &lines) : SqlDumpReader::read(QString::fromUtf8(text), &lines);
    if (!rows.ok())
        return rows.error();

    StoreResult<QSet<QString>> taken = keysInStore(store);
    if (!taken.ok())
        return taken.error();
    RowBatchCheck check(std::move(taken.value()));
    for (qsizetype i = 0; i < rows.value().size(); ++i) {
        const StoreError error = check.add(rows.value().at(i), lines.at(i));
        if (error.isError())
            return error;
    }
    const StoreError error = store.importRows(rows.value());
    if (error.isError())
        return error;
    return int(rows.value().size());
}

StoreResult<int> DirectoryImporter::importFile(DirectoryStore &store, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::Io,
                                QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    return importBytes(store, file.readAll());
}
