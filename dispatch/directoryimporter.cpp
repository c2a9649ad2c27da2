#include "directoryimporter.h"

#include "rowbatchcheck.h"
#include "rowjsoncodec.h"
#include "sqldumpreader.h"

#include <QFile>
#include <QSet>

#include <algorithm>
#include <cctype>

namespace {

// The byte offset of the first byte that is not well-formed UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF included), or -1.
qsizetype firstInvalidUtf8(QByteArrayView bytes)
{
    const auto *data = reinterpret_cast<const uchar *>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar lead = data[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        uchar low = 0x80; // the range of the second byte, narrowed where the lead needs it
        uchar high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + length > n || data[i + 1] < low || data[i + 1] > high)
            return i;
        for (int k = 2; k < length; ++k) {
            if (data[i + k] < 0x80 || data[i + k] > 0xBF)
                return i;
        }
        i += length;
    }
    return -1;
}

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
    const qsizetype bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
        const auto line = std::count(bytes.cbegin(), bytes.cbegin() + bad, '\n') + 1;
        return StoreError::make(StoreError::Kind::Invalid,
                                QStringLiteral("line %1: invalid UTF-8").arg(line));
    }
    // A byte-order mark is legal UTF-8 but no part of the rows.
    const QByteArray text = bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes;

    QList<int> lines;
    const auto first =
        std::find_if(text.cbegin(), text.cend(), [](char c) { return !std::isspace(uchar(c)); });
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
