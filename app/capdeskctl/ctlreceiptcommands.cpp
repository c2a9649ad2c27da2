#include "app/capdeskctl/ctlreceiptcommands.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/json/jsontextcheck.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/store/sqldirectorystore.h"

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

} // namespace

CtlReceiptCommands::CtlReceiptCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger)
    : m_args(args), m_ledger(std::move(ledger))
{}

int CtlReceiptCommands::receipts()
{
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage(CtlCommandTable::usageLine(u"receipts"_s));
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

int CtlReceiptCommands::confirm()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage(CtlCommandTable::usageLine(u"confirm"_s));
    const QJsonObject confirmation = m_ledger->confirm(m_args.positional.at(0));
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
        return CtlOutput::usage(CtlCommandTable::usageLine(u"verify-receipt"_s));
    const QString path = m_args.positional.at(0);
    const StoreResult<QByteArray> bytes = readFile(path, 1 << 20);
    if (!bytes.ok())
        return CtlOutput::fail(bytes.error());
    const StoreResult<QJsonObject> receipt = receiptIn(bytes.value(), path);
    if (!receipt.ok())
        return CtlOutput::fail(receipt.error());

    QList<PublicKey> keys;
    QString keySource;
    if (m_args.has(u"--public-key"_s)) {
        keySource = m_args.value(u"--public-key"_s);
        const StoreResult<QByteArray> pem = readFile(keySource, 64 << 10);
        if (!pem.ok())
            return CtlOutput::fail(pem.error());
        QString error;
        const std::optional<PublicKey> key = PublicKey::fromPem(pem.value(), &error);
        if (!key)
            return CtlOutput::fail(usageError(u"%1: %2"_s.arg(keySource, error)));
        keys.append(*key);
    } else if (m_ledger) {
        keySource = m_ledger->store()->location();
        keys = m_ledger->publicKeys();
    }
    const ReceiptVerifier::Result result = ReceiptVerifier::check(receipt.value(), keys);
    CtlOutput::printJson(QJsonObject{{u"valid"_s, result == ReceiptVerifier::Result::Valid},
                                     {u"signature"_s, ReceiptVerifier::name(result)},
                                     {u"invocation_id"_s, receipt.value().value(u"invocation_id"_s)},
                                     {u"key_source"_s, keySource}});
    return result == ReceiptVerifier::Result::Valid ? CtlOutput::Ok : CtlOutput::Findings;
}
