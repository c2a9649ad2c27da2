#include "app/capdeskctl/ctlmigratecommand.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/receipts/signingkeymove.h"
#include "dispatch/secrets/keychainpasswords.h"
#include "dispatch/store/directorycopy.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

QString shown(const QString &location)
{
    if (!PostgresLocation::isUrl(location))
        return location;
    const StoreResult<PostgresLocation> parsed = PostgresLocation::parse(location);
    return parsed.ok() ? parsed.value().display() : location;
}

// Compares what `log --verify` would: the event log and the receipt chains, their heads
// checked against the public keys the directory lists (which the copy carries along).
StoreResult<ReceiptLogAudit::Report> audit(const std::shared_ptr<SqlDirectoryStore> &store)
{
    return DirectoryHistory(store).auditTrustingListedKeys();
}

void removeFile(const QString &path)
{
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s, u"-journal"_s})
        QFile::remove(path + suffix);
}

QJsonObject toJson(const SigningKeyMove::Outcome &key)
{
    return key.carried ? QJsonObject{{u"carried"_s, true}, {u"file"_s, key.file}}
                       : QJsonObject{{u"carried"_s, false}, {u"reason"_s, key.reason}};
}

} // namespace

StoreResult<std::shared_ptr<SqlDirectoryStore>> CtlMigrateCommand::openSource(const QString &location) const
{
    if (!PostgresLocation::isUrl(location) && !QFileInfo::exists(location))
        return StoreError::make(StoreError::Kind::NotFound, u"no directory at %1"_s.arg(location));
    return SqlDirectoryStore::open(location, KeychainPasswords::lookup());
}

StoreResult<std::shared_ptr<SqlDirectoryStore>> CtlMigrateCommand::openDestination(const QString &location,
                                                                                   bool *created) const
{
    *created = false;
    if (!PostgresLocation::isUrl(location)) {
        *created = !QFileInfo::exists(location);
        QDir().mkpath(QFileInfo(location).absolutePath());
    }
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened =
        SqlDirectoryStore::open(location, KeychainPasswords::lookup());
    if (!opened.ok() && *created)
        removeFile(location);
    return opened;
}

int CtlMigrateCommand::run()
{
    const QString from = m_args.value(u"--from"_s);
    const QString to = m_args.value(u"--to"_s);
    if (!m_args.positional.isEmpty() || from.isEmpty() || to.isEmpty())
        return CtlOutput::usage(CtlCommandTable::usageLine(u"migrate"_s));
    const bool fromFile = !PostgresLocation::isUrl(from);
    const bool toFile = !PostgresLocation::isUrl(to);
    if (fromFile == toFile
        && (fromFile ? QFileInfo(from).absoluteFilePath() == QFileInfo(to).absoluteFilePath()
                     : shown(from) == shown(to)))
        return CtlOutput::usage(u"--from and --to name the same directory"_s);

    const StoreResult<std::shared_ptr<SqlDirectoryStore>> source = openSource(from);
    if (!source.ok())
        return CtlOutput::fail(source.error());
    const StoreResult<ReceiptLogAudit::Report> before = audit(source.value());
    if (!before.ok())
        return CtlOutput::fail(before.error());
    if (!before.value().intact()) {
        QJsonObject out = before.value().toJson();
        out.insert(u"error"_s, u"source_not_intact"_s);
        CtlOutput::printJson(out);
        std::fprintf(stderr,
                     "capdeskctl: %s does not verify (see `log --verify`); migrate moves only an intact "
                     "history, so nothing was copied\n",
                     qUtf8Printable(shown(from)));
        return CtlOutput::Findings;
    }

    bool created = false;
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened = openDestination(to, &created);
    if (!opened.ok())
        return CtlOutput::fail(opened.error());
    std::shared_ptr<SqlDirectoryStore> destination = std::move(opened.value());
    const StoreResult<QList<DirectoryCopy::Table>> copied =
        DirectoryCopy::copy(*source.value(), *destination);
    if (!copied.ok()) {
        const int exit = CtlOutput::fail(copied.error());
        if (created) {
            // Closed first, so SQLite does not write its journal beside a removed file.
            destination.reset();
            removeFile(to);
        }
        return exit;
    }
    const StoreResult<ReceiptLogAudit::Report> after = audit(destination);
    if (!after.ok())
        return CtlOutput::fail(after.error());

    QJsonObject tables;
    for (const DirectoryCopy::Table &table : copied.value())
        tables.insert(table.name, QJsonObject{{u"rows"_s, table.rows}, {u"sha256"_s, table.digest}});
    QJsonObject out{
        {u"from"_s, shown(from)},
        {u"to"_s, shown(to)},
        {u"tables"_s, tables},
        {u"verified"_s, after.value().intact()},
        {u"signing_key"_s, toJson(SigningKeyMove::carry(*source.value(), *destination))},
        {u"log"_s, after.value().toJson()},
    };
    CtlOutput::printJson(out);
    if (!after.value().intact()) {
        std::fprintf(stderr, "capdeskctl: the copy in %s does not verify; see `log --verify` there\n",
                     qUtf8Printable(shown(to)));
        return CtlOutput::Findings;
    }
    return CtlOutput::Ok;
}
