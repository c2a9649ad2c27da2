#include "app/capdeskctl/ctlreceiptcommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/json/jsontextcheck.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptsegmentfile.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {

StoreError usageError(const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, message);
}

StoreResult<QByteArray> readFile(const QString &path, qint64 limit)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::NotFound,
                                u"cannot read %1: %2"_s.arg(path, file.errorString()));
    const QByteArray bytes = file.read(limit + 1);
    if (bytes.size() > limit)
        return usageError(u"%1 is larger than %2 KiB; a receipt is far smaller"_s.arg(path).arg(limit >> 10));
    return bytes;
}

// A receipt file holds the receipt itself, or a whole dispatch response whose proof
// carries it (what `capdeskctl invoke` prints).
StoreResult<QJsonObject> receiptIn(const QByteArray &bytes, const QString &path)
{
    const JsonTextCheck json = JsonTextCheck::parse(QString::fromUtf8(bytes));
    if (!json.ok || !json.document.isObject())
        return usageError(u"%1 is not a JSON object: %2"_s.arg(path, json.message));
    QJsonObject object = json.document.object();
    if (object.value(u"proof"_s).toObject().value(u"receipt"_s).isObject())
        object = object.value(u"proof"_s).toObject().value(u"receipt"_s).toObject();
    if (!object.contains(u"invocation_id"_s))
        return usageError(u"%1 holds no receipt (no invocation_id)"_s.arg(path));
    return object;
}

// --before as receipts stamp started_at: a day (its midnight, UTC) or an ISO-8601 instant.
StoreResult<QString> archiveBoundary(const QString &text)
{
    QDateTime at;
    if (QDate::fromString(text, Qt::ISODate).isValid() && text.size() == 10)
        at = QDateTime(QDate::fromString(text, Qt::ISODate), QTime(0, 0), Qt::UTC);
    else
        at = QDateTime::fromString(text, Qt::ISODateWithMs);
    // Receipts are stamped in UTC, and so is an instant given without a zone.
    if (at.isValid() && at.timeSpec() == Qt::LocalTime)
        at.setTimeSpec(Qt::UTC);
    if (!at.isValid() || text.size() > 40)
        return usageError(
            u"--before needs a date (2026-11-01) or an ISO-8601 instant (2026-11-01T12:00:00Z), "
            "not '%1'"_s.arg(text.left(40)));
    if (at > QDateTime::currentDateTimeUtc())
        return usageError(
            u"--before %1 is in the future; only receipts already written can be archived"_s.arg(text));
    return at.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject segmentJson(const ReceiptSegmentSeal &seal)
{
    QJsonObject json = seal.toJson();
    json.remove(u"public_key"_s);
    json.remove(u"signature"_s);
    json.remove(u"type"_s);
    json.insert(u"key_id"_s, seal.keyId());
    return json;
}

} // namespace

CtlReceiptCommands::CtlReceiptCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger)
    : m_args(args), m_ledger(std::move(ledger))
{}

int CtlReceiptCommands::receipts()
{
    if (m_args.positional == QStringList{u"archive"_s})
        return archive();
    if (m_args.has(u"--before"_s) || m_args.has(u"--out"_s))
        return CtlOutput::usage(u"--before and --out are for `receipts archive`"_s);
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage();
    ReceiptLog::Query query;
    query.key = m_args.value(u"--key"_s);
    if (m_args.has(u"--limit"_s)) {
        bool ok = false;
        query.limit = m_args.value(u"--limit"_s).toLongLong(&ok);
        if (!ok || query.limit < 0)
            return CtlOutput::usage(u"--limit needs a whole number ≥ 0"_s);
    }
    const StoreResult<QList<Receipt>> receipts = m_ledger->receipts().list(query);
    if (!receipts.ok())
        return CtlOutput::fail(receipts.error());
    QJsonArray list;
    for (const Receipt &receipt : receipts.value())
        list.append(receipt.toJson());
    CtlOutput::printJson(QJsonObject{{u"receipts"_s, list}});
    return CtlOutput::Ok;
}

int CtlReceiptCommands::archive()
{
    if (m_args.has(u"--key"_s) || m_args.has(u"--limit"_s))
        return CtlOutput::usage(
            u"receipts archive moves whole stretches of every chain; it takes no --key or --limit"_s);
    const QString out = m_args.value(u"--out"_s);
    if (!m_args.has(u"--before"_s) || out.isEmpty())
        return CtlOutput::usage(u"receipts archive needs --before DATE and --out FILE"_s);
    const StoreResult<QString> before = archiveBoundary(m_args.value(u"--before"_s));
    if (!before.ok())
        return CtlOutput::usage(before.error().message);
    const StoreResult<ReceiptArchiver::Outcome> archived = m_ledger->archiveReceipts(before.value(), out);
    if (!archived.ok())
        return CtlOutput::fail(archived.error());
    if (!archived.value().seal) {
        CtlOutput::printJson(QJsonObject{{u"archived"_s, 0}, {u"before"_s, before.value()}});
        std::fprintf(stderr,
                     "capdeskctl: no receipt started before %s is left to archive; %s was not written\n",
                     qUtf8Printable(before.value()), qUtf8Printable(out));
        return CtlOutput::Ok;
    }
    const ReceiptSegmentSeal &seal = *archived.value().seal;
    CtlOutput::printJson(QJsonObject{{u"archived"_s, seal.receiptCount},
                                     {u"archive_id"_s, archived.value().archiveId},
                                     {u"out"_s, out},
                                     {u"segment"_s, segmentJson(seal)}});
    return CtlOutput::Ok;
}

int CtlReceiptCommands::confirm()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage();
    const QString invocationId = m_args.positional.at(0);
    const QJsonObject confirmation =
        m_args.has(u"--archive"_s) ? m_ledger->confirmInSegment(invocationId, m_args.value(u"--archive"_s))
                                   : m_ledger->confirm(invocationId);
    CtlOutput::printJson(confirmation);
    if (confirmation.contains(u"reason"_s))
        return CtlOutput::Findings;
    if (confirmation.value(u"status"_s).toString() == "UNKNOWN_INVOCATION"_L1)
        return CtlOutput::NotFound;
    return confirmation.value(u"confirmed"_s).toBool() ? CtlOutput::Ok : CtlOutput::Findings;
}

int CtlReceiptCommands::verifyReceipt()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage();
    const QString path = m_args.positional.at(0);
    if (ReceiptSegmentFile::looksLikeSegment(path))
        return verifySegment(path);
    if (m_args.has(u"--invocation"_s))
        return CtlOutput::usage(
            u"--invocation picks a receipt out of a receipt segment, and %1 is none"_s.arg(path));
    const StoreResult<QByteArray> bytes = readFile(path, 1 << 20);
    if (!bytes.ok())
        return CtlOutput::fail(bytes.error());
    const StoreResult<QJsonObject> receipt = receiptIn(bytes.value(), path);
    if (!receipt.ok())
        return CtlOutput::fail(receipt.error());

    const StoreResult<TrustedKeys> trusted = trustedKeys();
    if (!trusted.ok())
        return CtlOutput::fail(trusted.error());
    const QList<PublicKey> &keys = trusted.value().keys;
    const QString &keySource = trusted.value().source;
    const ReceiptVerifier::Result result = ReceiptVerifier::check(receipt.value(), keys);
    CtlOutput::printJson(QJsonObject{{u"valid"_s, result == ReceiptVerifier::Result::Valid},
                                     {u"signature"_s, ReceiptVerifier::name(result)},
                                     {u"invocation_id"_s, receipt.value().value(u"invocation_id"_s)},
                                     {u"key_source"_s, keySource}});
    return result == ReceiptVerifier::Result::Valid ? CtlOutput::Ok : CtlOutput::Findings;
}

StoreResult<CtlReceiptCommands::TrustedKeys> CtlReceiptCommands::trustedKeys() const
{
    TrustedKeys trusted;
    if (m_args.has(u"--public-key"_s)) {
        trusted.source = m_args.value(u"--public-key"_s);
        const StoreResult<QByteArray> pem = readFile(trusted.source, 64 << 10);
        if (!pem.ok())
            return pem.error();
        QString error;
        const std::optional<PublicKey> key = PublicKey::fromPem(pem.value(), &error);
        if (!key)
            return usageError(u"%1: %2"_s.arg(trusted.source, error));
        trusted.keys.append(*key);
    } else if (m_ledger) {
        trusted.source = m_ledger->store()->location();
        trusted.keys = m_ledger->publicKeys();
    }
    return trusted;
}

int CtlReceiptCommands::verifySegment(const QString &path)
{
    const StoreResult<TrustedKeys> trusted = trustedKeys();
    if (!trusted.ok())
        return CtlOutput::fail(trusted.error());
    const QString invocationId = m_args.value(u"--invocation"_s);
    const ReceiptSegmentFile::Check check =
        ReceiptSegmentFile::verify(path, trusted.value().keys, invocationId);
    QJsonObject out{
        {u"valid"_s, check.ok()}, {u"receipts"_s, check.receipts}, {u"key_source"_s, trusted.value().source}};
    if (check.seal)
        out.insert(u"segment"_s, segmentJson(*check.seal));
    if (!check.ok()) {
        out.insert(u"reason"_s, check.code);
        out.insert(u"error"_s, check.message);
        CtlOutput::printJson(out);
        std::fprintf(stderr, "capdeskctl: %s: %s\n", qUtf8Printable(check.code),
                     qUtf8Printable(check.message));
        return CtlOutput::Findings;
    }
    if (m_ledger && !m_args.has(u"--public-key"_s)) {
        const StoreResult<qint64> recorded = m_ledger->recordedArchive(*check.seal);
        if (!recorded.ok())
            return CtlOutput::fail(recorded.error());
        if (recorded.value() > 0)
            out.insert(u"archive_id"_s, recorded.value());
    }
    if (invocationId.isEmpty()) {
        CtlOutput::printJson(out);
        return CtlOutput::Ok;
    }
    if (!check.found) {
        out.insert(u"valid"_s, false);
        out.insert(u"reason"_s, u"not_in_segment"_s);
        out.insert(u"error"_s, u"%1 holds no receipt %2"_s.arg(path, invocationId));
        CtlOutput::printJson(out);
        return CtlOutput::NotFound;
    }
    const ReceiptVerifier::Result result = ReceiptVerifier::check(*check.found, trusted.value().keys);
    out.insert(u"valid"_s, result == ReceiptVerifier::Result::Valid);
    out.insert(u"signature"_s, ReceiptVerifier::name(result));
    out.insert(u"invocation_id"_s, invocationId);
    out.insert(u"receipt"_s, *check.found);
    if (result != ReceiptVerifier::Result::Valid) {
        const QString why =
            u"receipt %1 in %2 does not verify: %3"_s.arg(invocationId, path, ReceiptVerifier::name(result));
        out.insert(u"reason"_s,
                   result == ReceiptVerifier::Result::NoKey ? u"no_key"_s : u"signature_invalid"_s);
        out.insert(u"error"_s, why);
        std::fprintf(stderr, "capdeskctl: %s\n", qUtf8Printable(why));
    }
    CtlOutput::printJson(out);
    return result == ReceiptVerifier::Result::Valid ? CtlOutput::Ok : CtlOutput::Findings;
}
