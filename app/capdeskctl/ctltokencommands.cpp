#include "app/capdeskctl/ctltokencommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitytokenstore.h"
#include "dispatch/tokens/tokenscopecheck.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

// The command line stands for the owner at their own terminal.
const QString kActor = u"owner:local"_s;

} // namespace

CtlTokenCommands::CtlTokenCommands(const CtlArguments &args, std::shared_ptr<DirectoryLedger> ledger)
    : m_args(args), m_ledger(std::move(ledger))
{}

int CtlTokenCommands::create()
{
    CapabilityToken spec;
    spec.label = m_args.value(u"--label"_s);
    spec.audience = m_args.value(u"--audience"_s);
    spec.ownerGate = m_args.has(u"--owner-gate"_s);
    spec.allowedKeys = CapabilityToken::splitList(m_args.value(u"--keys"_s));
    spec.allowedCategories = CapabilityToken::splitList(m_args.value(u"--categories"_s));
    if (m_args.has(u"--risk-ceiling"_s))
        spec.riskCeiling = m_args.value(u"--risk-ceiling"_s);
    if (m_args.has(u"--fixed-body"_s))
        spec.fixedBody = m_args.value(u"--fixed-body"_s);
    // The options were checked before the directory was opened (CtlTokenOptions).
    if (m_args.has(u"--payload-ceiling"_s))
        spec.payloadCeiling = m_args.value(u"--payload-ceiling"_s).toLongLong();
    const StoreResult<QString> expiry =
        CapabilityToken::resolveExpiry(m_args.value(u"--expires"_s), QDateTime::currentDateTimeUtc());
    if (!expiry.ok())
        return CtlOutput::fail(expiry.error());
    spec.expiresAt = expiry.value();
    if (m_args.has(u"--pin"_s)) {
        const StoreResult<Row> row = m_ledger->store()->row(m_args.value(u"--pin"_s));
        if (!row.ok())
            return CtlOutput::fail(row.error());
        if (const StoreError error = spec.pinToRow(row.value()); error.isError())
            return CtlOutput::fail(error);
    }

    // What is wrong with the token itself is said first; an unknown name may be meant.
    if (const StoreError invalid = spec.validate(); invalid.isError())
        return CtlOutput::fail(invalid);
    if (!m_args.has(u"--allow-unknown"_s)) {
        if (const int refused = refuseUnknownNames(spec); refused != CtlOutput::Ok)
            return refused;
    }

    const StoreResult<CapabilityTokenStore::Minted> minted = m_ledger->tokens().create(spec, kActor);
    if (!minted.ok())
        return CtlOutput::fail(minted.error());
    CtlOutput::printJson(QJsonObject{{u"ok"_s, true},
                                     {u"token"_s, minted.value().token.toJson()},
                                     {u"value"_s, minted.value().value},
                                     {u"note"_s, u"shown once"_s}});
    return CtlOutput::Ok;
}

int CtlTokenCommands::refuseUnknownNames(const CapabilityToken &spec) const
{
    const StoreResult<TokenScopeCheck::Names> known = TokenScopeCheck::known(*m_ledger->store());
    if (!known.ok())
        return CtlOutput::fail(known.error());
    const TokenScopeCheck::Names unknown = TokenScopeCheck::unknown(spec, known.value());
    if (unknown.isEmpty())
        return CtlOutput::Ok;
    const QString message = u"unknown_scope: %1 (give --allow-unknown to make the token anyway)"_s.arg(
        TokenScopeCheck::describe(unknown));
    CtlOutput::printJson(
        QJsonObject{{u"ok"_s, false},
                    {u"error"_s, message},
                    {u"reason"_s, u"unknown_scope"_s},
                    {u"unknown_keys"_s, QJsonArray::fromStringList(unknown.keys)},
                    {u"unknown_categories"_s, QJsonArray::fromStringList(unknown.categories)}});
    CtlOutput::note(message);
    return CtlOutput::NotFound;
}

int CtlTokenCommands::list()
{
    const StoreResult<QList<CapabilityToken>> tokens = m_ledger->tokens().list();
    if (!tokens.ok())
        return CtlOutput::fail(tokens.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonArray listed;
    for (const CapabilityToken &token : tokens.value()) {
        QJsonObject entry = token.toJson();
        entry.insert(u"status"_s, token.status(now));
        listed.append(entry);
    }
    CtlOutput::printJson(QJsonObject{{u"tokens"_s, listed}});
    return CtlOutput::Ok;
}

int CtlTokenCommands::revoke()
{
    const QString id = m_args.positional.at(1);
    if (const StoreError error = m_ledger->tokens().revoke(id, kActor); error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(QJsonObject{{u"ok"_s, true}, {u"revoked"_s, id}});
    return CtlOutput::Ok;
}
