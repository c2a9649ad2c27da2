#include "app/capdeskctl/ctllogcommand.h"

#include "app/capdeskctl/ctlledger.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/json/jsontextcheck.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptloganchor.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/eventlog.h"

#include <QFile>
#include <QJsonArray>

#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

const QString kAnchorInvalid = u"anchor_invalid"_s;

StoreResult<ReceiptLogAnchor> readAnchor(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::NotFound,
                                u"cannot read %1: %2"_s.arg(path, file.errorString()));
    const auto tooLarge = [&path] {
        return StoreError::make(StoreError::Kind::Invalid,
                                u"%1 is larger than %2 MiB; it is not an anchor"_s.arg(path).arg(
                                    ReceiptLogAnchor::kMaxBytes >> 20));
    };
    // A pipe has no size, so what is read is capped as well.
    if (file.size() > ReceiptLogAnchor::kMaxBytes)
        return tooLarge();
    const QByteArray bytes = file.read(ReceiptLogAnchor::kMaxBytes + 1);
    if (bytes.size() > ReceiptLogAnchor::kMaxBytes)
        return tooLarge();
    if (bytes.trimmed().isEmpty())
        return StoreError::make(StoreError::Kind::Invalid, u"%1 is empty"_s.arg(path));
    const JsonTextCheck json = JsonTextCheck::parse(QString::fromUtf8(bytes));
    if (!json.ok || !json.document.isObject())
        return StoreError::make(StoreError::Kind::Invalid,
                                u"%1 is not a JSON object: %2"_s.arg(path, json.message));
    QString error;
    const std::optional<ReceiptLogAnchor> anchor = ReceiptLogAnchor::fromJson(json.document.object(), &error);
    if (!anchor)
        return StoreError::make(StoreError::Kind::Invalid, u"%1: %2"_s.arg(path, error));
    return *anchor;
}

} // namespace

CtlLogCommand::CtlLogCommand(const CtlArguments &args, std::shared_ptr<SqlDirectoryStore> store,
                             std::shared_ptr<DirectoryLedger> ledger)
    : m_args(args), m_history(std::move(store)), m_ledger(std::move(ledger))
{}

int CtlLogCommand::run()
{
    const bool verifying = m_args.has(u"--verify"_s);
    const bool anchoring = m_args.has(u"--anchor"_s);
    // `--verify --anchor FILE`: FILE is the one positional; `--anchor` alone takes none.
    if (m_args.positional.size() > (verifying && anchoring ? 1 : 0))
        return CtlOutput::usage();
    if (verifying)
        return verify();
    if (anchoring)
        return m_args.has(u"--key"_s)
                   ? CtlOutput::usage(u"--anchor covers the whole log; it takes no --key"_s)
                   : anchor();
    return list();
}

int CtlLogCommand::list()
{
    const StoreResult<QList<LogEvent>> read = m_history.events(m_args.value(u"--key"_s));
    if (!read.ok())
        return CtlOutput::fail(read.error());
    QJsonArray events;
    for (const LogEvent &event : read.value())
        events.append(EventLog::toJson(event));
    CtlOutput::printJson(QJsonObject{{u"events"_s, events}});
    return CtlOutput::Ok;
}

int CtlLogCommand::verify()
{
    // The chains are across all keys, so --key does not narrow a verification.
    if (m_args.has(u"--key"_s))
        return CtlOutput::usage(u"--verify checks the whole log; it takes no --key"_s);
    std::optional<ReceiptLogAnchor> anchor;
    // A file that is no anchor is a finding of the verification, not a misuse of the command.
    std::optional<ReceiptLogAudit::Finding> anchorProblem;
    if (m_args.has(u"--anchor"_s)) {
        const QString path = m_args.positional.value(0);
        if (path.isEmpty())
            return CtlOutput::usage(u"--verify --anchor needs the anchor's FILE"_s);
        const StoreResult<ReceiptLogAnchor> read = readAnchor(path);
        if (read.ok())
            anchor = read.value();
        else if (read.error().kind == StoreError::Kind::Invalid)
            anchorProblem = ReceiptLogAudit::Finding{kAnchorInvalid, read.error().message};
        else
            return CtlOutput::fail(read.error());
    }
    QString untrusted;
    const QList<PublicKey> keys = CtlLedger::trustedKeys(*m_ledger, anchor ? &*anchor : nullptr, &untrusted);
    const StoreResult<ReceiptLogAudit::Report> audited = m_history.audit(keys, anchor ? &*anchor : nullptr);
    if (!audited.ok())
        return CtlOutput::fail(audited.error());
    ReceiptLogAudit::Report report = audited.value();
    QJsonObject out;
    if (anchorProblem) {
        report.add(*anchorProblem);
        out = report.toJson();
        out.insert(u"error"_s, kAnchorInvalid);
        out.insert(u"reason"_s, anchorProblem->message);
        std::fprintf(stderr, "capdeskctl: %s: %s\n", qUtf8Printable(kAnchorInvalid),
                     qUtf8Printable(anchorProblem->message));
    } else {
        out = report.toJson();
    }
    // The audit says the heads went unchecked; this says why, for the owner to fix.
    if (!untrusted.isEmpty()) {
        out.insert(u"key_problem"_s, untrusted);
        std::fprintf(stderr, "capdeskctl: no key to check the receipt chain heads with: %s\n",
                     qUtf8Printable(untrusted));
    }
    CtlOutput::printJson(out);
    return report.intact() ? CtlOutput::Ok : CtlOutput::Findings;
}

int CtlLogCommand::anchor()
{
    if (const StoreError sealed = m_ledger->sealPreChain(); sealed.isError())
        return CtlOutput::fail(sealed);
    const StoreResult<SigningKey> key = m_ledger->signingKey();
    if (!key.ok())
        return CtlOutput::fail(key.error());
    const StoreResult<DirectoryHistory::Anchoring> anchoring = m_history.anchor(key.value());
    if (!anchoring.ok())
        return CtlOutput::fail(anchoring.error());
    const bool intact = anchoring.value().anchor.has_value();
    QJsonObject out;
    if (intact) {
        out = anchoring.value().anchor->toJson();
    } else {
        out = anchoring.value().report.toJson();
        out.insert(u"error"_s, u"the log does not verify, so no anchor was made"_s);
    }
    CtlOutput::printJson(out);
    return intact ? CtlOutput::Ok : CtlOutput::Findings;
}
