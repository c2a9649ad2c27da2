#include "dispatch/store/directoryimporter.h"

#include "dispatch/core/isotime.h"
#include "dispatch/core/utf8text.h"
#include "dispatch/lint/hygienegate.h"
#include "dispatch/row/rowbatchcheck.h"
#include "dispatch/row/rowjsoncodec.h"
#include "dispatch/row/rowvalidator.h"
#include "dispatch/store/sqldumpreader.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QSet>

#include <cctype>

namespace {

// Rows named one by one in a refusal or a listing, with their findings in `details`; the
// rest are counted.
constexpr int listedRows = DirectoryImporter::listedRows;
const QLatin1String hygieneLead("hygiene: ");

StoreError invalid(const QString &message, const QJsonArray &details = {})
{
    return StoreError::make(StoreError::Kind::Invalid, message, details);
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

// The first character past a byte-order mark and blanks, without consuming it.
char firstCharacter(QIODevice &device)
{
    const QByteArray head = device.peek(4096);
    qsizetype i = head.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < head.size() && std::isspace(uchar(head.at(i))))
        ++i;
    return i < head.size() ? head.at(i) : '\0';
}

StoreResult<SqlDump> readJson(QIODevice &device)
{
    if (device.size() > DirectoryImporter::maxJsonBytes)
        return invalid(
            QStringLiteral("the JSON file is larger than %1 MiB").arg(DirectoryImporter::maxJsonBytes >> 20));
    const QByteArray bytes = device.read(DirectoryImporter::maxJsonBytes + 1);
    if (bytes.size() > DirectoryImporter::maxJsonBytes)
        return invalid(
            QStringLiteral("the JSON file is larger than %1 MiB").arg(DirectoryImporter::maxJsonBytes >> 20));
    if (const StoreError encoding = Utf8Text::check(bytes); encoding.isError())
        return encoding;
    SqlDump dump;
    StoreResult<QList<Row>> rows =
        RowJsonCodec::decode(bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes, &dump.lines);
    if (!rows.ok())
        return rows.error();
    dump.rows = std::move(rows.value());
    return dump;
}

StoreResult<SqlDump> readRows(QIODevice &device)
{
    const char first = firstCharacter(device);
    if (first == '{')
        return invalid(QStringLiteral("line 1: expected a JSON array of rows ([…]), got a single object"));
    return first == '[' ? readJson(device) : SqlDumpReader::read(device);
}

void restamp(QList<Row> &rows, QStringList &restamped)
{
    const QString now = IsoTime::nowUtc();
    for (Row &row : rows) {
        for (QString *stamp : {&row.updatedAt, &row.createdAt}) {
            if (stamp->isEmpty() || RowValidator::isStoreTimestamp(*stamp))
                continue;
            *stamp = now;
            restamped.append(
                row.key
                + (stamp == &row.updatedAt ? QStringLiteral(" updated_at") : QStringLiteral(" created_at")));
        }
    }
}

// Every row RowBatchCheck refused: the first listedRows by line and codes, the rest counted.
StoreError batchRefusal(const QList<StoreError> &listed, qsizetype refusedRows, qsizetype rows)
{
    if (refusedRows == 1)
        return listed.first();
    QStringList message;
    QJsonArray details;
    for (const StoreError &refusal : listed) {
        message.append(refusal.message);
        for (const QJsonValue finding : refusal.details)
            details.append(finding);
    }
    if (refusedRows > listed.size())
        message.append(QStringLiteral("… and %1 more rows").arg(refusedRows - listed.size()));
    message.append(
        QStringLiteral("%1 of the %2 rows are refused, so nothing was imported").arg(refusedRows).arg(rows));
    return invalid(message.join(u'\n'), details);
}

StoreError hygieneRefusal(const QList<LintFinding> &errors, const QList<Row> &rows, const QList<int> &lines)
{
    QHash<QString, int> lineOf;
    for (qsizetype i = 0; i < rows.size(); ++i)
        lineOf.insert(rows.at(i).key, lines.at(i));
    QStringList keys;
    QHash<QString, QStringList> codes;
    for (const LintFinding &finding : errors) {
        if (!codes.contains(finding.key))
            keys.append(finding.key);
        codes[finding.key].append(finding.code + u' ' + finding.name);
    }
    const QSet<QString> listed(keys.cbegin(), keys.cbegin() + std::min<qsizetype>(keys.size(), listedRows));
    QJsonArray details;
    for (const LintFinding &finding : errors) {
        if (listed.contains(finding.key))
            details.append(finding.toJson());
    }
    QStringList message{hygieneLead
                        + QStringLiteral("%1 of the %2 rows are not compliant, so nothing was imported; "
                                         "fix them, or import them as they are with --allow-noncompliant:")
                              .arg(keys.size())
                              .arg(rows.size())};
    for (qsizetype i = 0; i < std::min<qsizetype>(keys.size(), listedRows); ++i)
        message.append(QStringLiteral("line %1: %2: %3")
                           .arg(lineOf.value(keys.at(i)))
                           .arg(keys.at(i), codes.value(keys.at(i)).join(QStringLiteral(", "))));
    if (keys.size() > listedRows)
        message.append(QStringLiteral("… and %1 more rows").arg(keys.size() - listedRows));
    return invalid(message.join(u'\n'), details);
}

} // namespace

QJsonObject ImportReport::toJson() const
{
    QSet<QString> listedKeys;
    QSet<QString> unlistedKeys;
    QJsonArray findings;
    for (const LintFinding &finding : noncompliant) {
        if (listedKeys.contains(finding.key) || listedKeys.size() < listedRows) {
            listedKeys.insert(finding.key);
            findings.append(finding.toJson());
        } else {
            unlistedKeys.insert(finding.key);
        }
    }
    return QJsonObject{{QStringLiteral("ok"), true},
                       {QStringLiteral("imported"), imported},
                       {QStringLiteral("skipped"), QJsonArray::fromStringList(skipped)},
                       {QStringLiteral("noncompliant"), findings},
                       {QStringLiteral("noncompliant_rows"), listedKeys.size() + unlistedKeys.size()},
                       {QStringLiteral("noncompliant_unlisted"), unlistedKeys.size()},
                       {QStringLiteral("restamped"), QJsonArray::fromStringList(restamped)}};
}

StoreResult<ImportReport> DirectoryImporter::importDevice(DirectoryStore &store, QIODevice &device,
                                                          const ImportOptions &options)
{
    StoreResult<SqlDump> read = readRows(device);
    if (!read.ok())
        return read.error();
    SqlDump &dump = read.value();
    ImportReport report;
    report.skipped = dump.skipped;
    if (options.restamp)
        restamp(dump.rows, report.restamped);

    StoreResult<QSet<QString>> taken = keysInStore(store);
    if (!taken.ok())
        return taken.error();
    RowBatchCheck check(std::move(taken.value()));
    QList<StoreError> listed;
    qsizetype refusedRows = 0;
    for (qsizetype i = 0; i < dump.rows.size(); ++i) {
        StoreError error = check.add(dump.rows.at(i), dump.lines.at(i));
        if (!error.isError())
            continue;
        ++refusedRows;
        if (listed.size() < listedRows)
            listed.append(std::move(error));
    }
    if (refusedRows > 0)
        return batchRefusal(listed, refusedRows, dump.rows.size());
    StoreResult<QList<Row>> existing = store.allRows();
    if (!existing.ok())
        return existing.error();
    const QList<LintFinding> errors =
        HygieneGate::importFindings(std::move(existing.value()), dump.rows, !store.hasRoundTrips());
    if (!errors.isEmpty() && !options.allowNoncompliant)
        return hygieneRefusal(errors, dump.rows, dump.lines);
    if (const StoreError error = store.importRows(dump.rows); error.isError())
        return error;
    report.imported = int(dump.rows.size());
    report.noncompliant = errors;
    return report;
}

bool DirectoryImporter::isHygieneRefusal(const StoreError &error)
{
    return error.kind == StoreError::Kind::Invalid && error.message.startsWith(hygieneLead)
           && !error.details.isEmpty();
}

StoreResult<ImportReport> DirectoryImporter::importBytes(DirectoryStore &store, const QByteArray &bytes,
                                                         const ImportOptions &options)
{
    QBuffer buffer;
    buffer.setData(bytes);
    if (!buffer.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::Io, QStringLiteral("cannot read the rows"));
    return importDevice(store, buffer, options);
}

StoreResult<ImportReport> DirectoryImporter::importFile(DirectoryStore &store, const QString &path,
                                                        const ImportOptions &options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::Io,
                                QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    return importDevice(store, file, options);
}
