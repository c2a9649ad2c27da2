#include "app/capdeskctl/ctlmigratecommand.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "app/capdeskctl/ctlledger.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkeymove.h"
#include "dispatch/secrets/keychainpasswords.h"
#include "dispatch/store/directorycopy.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

QString shown(const QString &location)
{
    if (!PostgresLocation::isUrl(location))
        return location;
    const StoreResult<PostgresLocation> parsed = PostgresLocation::parse(location);
    return parsed.ok() ? parsed.value().display() : location;
}

// A file named through a symlink or a relative path is still the same file.
bool sameFile(const QString &one, const QString &other)
{
    const QString first = QFileInfo(one).canonicalFilePath();
    return !first.isEmpty() && first == QFileInfo(other).canonicalFilePath();
}

QJsonObject toJson(const SigningKeyMove::Outcome &key)
{
    QJsonObject out{{u"carried"_s, key.carried()}};
    if (key.carried())
        out.insert(u"file"_s, key.file);
    else
        out.insert(u"reason"_s, key.reason);
    return out;
}

void removeFile(const QString &path)
{
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s, u"-journal"_s})
        QFile::remove(path + suffix);
}

int refuse(StoreError::Kind kind, const QString &message, int exitCode = -1)
{
    return CtlOutput::fail(StoreError::make(kind, message), exitCode);
}

} // namespace

StoreResult<std::shared_ptr<SqlDirectoryStore>> CtlMigrateCommand::openSource(const QString &location) const
{
    if (!PostgresLocation::isUrl(location) && !QFileInfo::exists(location))
        return StoreError::make(StoreError::Kind::NotFound, u"no directory at %1"_s.arg(location));
    return SqlDirectoryStore::open(location, KeychainPasswords::lookup(),
                                   SqlDirectoryStore::Creation::Existing);
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
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage();
    if (from.isEmpty() || to.isEmpty())
        return refuse(
            StoreError::Kind::Invalid,
            u"migrate needs %1 (%2)"_s.arg(from.isEmpty() ? u"--from FILE|URL"_s : u"--to FILE|URL"_s,
                                           CtlCommandTable::usageLine(u"migrate"_s)),
            CtlOutput::Usage);
    const bool fromFile = !PostgresLocation::isUrl(from);
    const bool toFile = !PostgresLocation::isUrl(to);
    if (fromFile && toFile && sameFile(from, to))
        return refuse(StoreError::Kind::Invalid, u"--from and --to name the same file"_s, CtlOutput::Usage);

    const StoreResult<std::shared_ptr<SqlDirectoryStore>> source = openSource(from);
    if (!source.ok())
        return CtlOutput::fail(source.error());
    // Checked as `log --verify` checks it, trusting only a key this machine holds, so a
    // move never carries forged heads along unnoticed; the copy is held to the same keys.
    const std::shared_ptr<DirectoryLedger> ledger = CtlLedger::open(source.value(), m_args);
    const QList<PublicKey> keys = CtlLedger::trustedKeys(*ledger);
    const StoreResult<ReceiptLogAudit::Report> before = DirectoryHistory(source.value()).audit(keys);
    if (!before.ok())
        return CtlOutput::fail(before.error());
    if (!before.value().intact()) {
        QJsonObject out = before.value().toJson();
        out.insert(u"error"_s, u"source_not_intact"_s);
        CtlOutput::printJson(out);
        std::fprintf(stderr,
                     "capdeskctl: %s does not pass log --verify (findings above); migrate moves only an "
                     "intact history, so nothing was copied\n",
                     qUtf8Printable(shown(from)));
        return CtlOutput::Findings;
    }

    bool created = false;
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened = openDestination(to, &created);
    if (!opened.ok())
        return CtlOutput::fail(opened.error());
    std::shared_ptr<SqlDirectoryStore> destination = std::move(opened.value());
    const auto abandon = [&](int exit) {
        if (created) {
            // Closed first, so SQLite does not write its journal beside a removed file.
            destination.reset();
            removeFile(to);
        }
        return exit;
    };
    const SigningKeyMove::Outcome keyCheck = SigningKeyMove::check(*source.value(), *destination);
    if (keyCheck.refused())
        return abandon(refuse(StoreError::Kind::Invalid, keyCheck.reason));
    const StoreResult<QList<DirectoryCopy::Table>> copied =
        DirectoryCopy::copy(*source.value(), *destination);
    if (!copied.ok())
        return abandon(CtlOutput::fail(copied.error()));
    const StoreResult<ReceiptLogAudit::Report> after = DirectoryHistory(destination).audit(keys);
    if (!after.ok())
        return CtlOutput::fail(after.error());
    const SigningKeyMove::Outcome key = SigningKeyMove::carry(*source.value(), *destination);

    QJsonObject tables;
    for (const DirectoryCopy::Table &table : copied.value())
        tables.insert(table.name, QJsonObject{{u"rows"_s, table.rows}, {u"sha256"_s, table.digest}});
    CtlOutput::printJson(QJsonObject{
        {u"from"_s, shown(from)},
        {u"to"_s, shown(to)},
        {u"tables"_s, tables},
        {u"verified"_s, after.value().intact()},
        {u"log"_s, after.value().toJson()},
        {u"signing_key"_s, toJson(key)},
    });
    if (!after.value().intact()) {
        std::fprintf(stderr, "capdeskctl: the copy in %s does not verify; see `log --verify` there\n",
                     qUtf8Printable(shown(to)));
        return CtlOutput::Findings;
    }
    if (key.refused()) {
        std::fprintf(stderr, "capdeskctl: the copy is complete, but its signing key stayed behind: %s\n",
                     qUtf8Printable(key.reason));
        return CtlOutput::Findings;
    }
    return CtlOutput::Ok;
}
