#include "ctllogcommand.h"

#include "ctloutput.h"
#include "eventlog.h"
#include "sqlitedirectorystore.h"

#include <QJsonArray>

CtlLogCommand::CtlLogCommand(const CtlArguments &args, std::shared_ptr<SqliteDirectoryStore> store)
    : m_args(args), m_store(std::move(store))
{}

int CtlLogCommand::run()
{
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage(QStringLiteral("usage: capdeskctl log [--key KEY] [--verify]"));
    return m_args.has(QStringLiteral("--verify")) ? verify() : list();
}

int CtlLogCommand::list()
{
    QJsonArray events;
    const StoreError error = m_store->withReadConnection([&](QSqlDatabase &db) -> StoreError {
        const StoreResult<QList<LogEvent>> read = EventLog(db).events(m_args.value(QStringLiteral("--key")));
        if (!read.ok())
            return read.error();
        for (const LogEvent &event : read.value())
            events.append(EventLog::toJson(event));
        return StoreError::none();
    });
    if (error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(QJsonObject{{QStringLiteral("events"), events}});
    return CtlOutput::Ok;
}

int CtlLogCommand::verify()
{
    // The chain is one across all keys, so --key does not narrow a verification.
    if (m_args.has(QStringLiteral("--key")))
        return CtlOutput::usage(QStringLiteral("--verify checks the whole log; it takes no --key"));
    EventLog::Verification verification;
    const StoreError error = m_store->withReadConnection([&](QSqlDatabase &db) -> StoreError {
        const StoreResult<EventLog::Verification> verified = EventLog(db).verify();
        if (!verified.ok())
            return verified.error();
        verification = verified.value();
        return StoreError::none();
    });
    if (error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(verification.toJson());
    return verification.intact ? CtlOutput::Ok : CtlOutput::Findings;
}
