#include "app/capdeskctl/ctlcommands.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "app/capdeskctl/ctlcompletion.h"
#include "app/capdeskctl/ctldispatchlimits.h"
#include "app/capdeskctl/ctlflowplancommand.h"
#include "app/capdeskctl/ctlhelp.h"
#include "app/capdeskctl/ctlkeycommands.h"
#include "app/capdeskctl/ctlledger.h"
#include "app/capdeskctl/ctllintcommands.h"
#include "app/capdeskctl/ctllogcommand.h"
#include "app/capdeskctl/ctlmanpage.h"
#include "app/capdeskctl/ctlmcpcommand.h"
#include "app/capdeskctl/ctlmigratecommand.h"
#include "app/capdeskctl/ctloutput.h"
#include "app/capdeskctl/ctlrefusalnote.h"
#include "app/capdeskctl/ctlservecommand.h"
#include "app/capdeskctl/ctlservercommands.h"
#include "app/capdeskctl/ctltokencommands.h"
#include "app/capdeskctl/ctltokenoptions.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/core/productversion.h"
#include "dispatch/core/utf8text.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/json/jsontextcheck.h"
#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/secrets/keychainpasswords.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directoryexporter.h"
#include "dispatch/store/directoryimporter.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/rowrestore.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "remote/remotedirectorystore.h"
#include "server/secretlinefile.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSettings>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

using CtlOutput::Ok;

StoreError invalid(const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, message);
}

// One row is kilobytes; anything near this is a mistake, not a row.
constexpr qint64 kMaxStdinBytes = 64 * 1024 * 1024;

// The one JSON object put and patch read from stdin. Its failures are usage errors.
StoreResult<QJsonObject> readStdinObject(const QString &what)
{
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return invalid(QStringLiteral("cannot read stdin"));
    const QByteArray bytes = in.read(kMaxStdinBytes + 1);
    if (bytes.size() > kMaxStdinBytes)
        return invalid(QStringLiteral("stdin holds more than %1 MiB; expected one %2")
                           .arg(kMaxStdinBytes >> 20)
                           .arg(what));
    if (bytes.trimmed().isEmpty())
        return invalid(QStringLiteral("stdin is empty; expected one %1").arg(what));
    const StoreError encoding = Utf8Text::check(bytes);
    if (encoding.isError())
        return invalid(QStringLiteral("stdin, ") + encoding.message);
    const JsonTextCheck json = JsonTextCheck::parse(QString::fromUtf8(bytes));
    if (!json.ok)
        return invalid(QStringLiteral("stdin is not JSON: ") + json.message);
    if (!json.document.isObject())
        return invalid(QStringLiteral("stdin must hold one %1").arg(what));
    return json.document.object();
}

QJsonObject writeOutcome(const WriteOutcome &outcome)
{
    return {{QStringLiteral("ok"), true},
            {QStringLiteral("key"), outcome.key},
            {QStringLiteral("updated_at"), outcome.updatedAt},
            {QStringLiteral("created"), outcome.created}};
}

} // namespace

CtlCommands::CtlCommands(CtlArguments arguments) : m_args(std::move(arguments)) {}

int CtlCommands::run()
{
    const int exit = runCommand();
    if (exit != CtlOutput::UsageWithSynopsis)
        return exit;
    printUsage();
    return CtlOutput::Usage;
}

void CtlCommands::printUsage() const
{
    const QList<const CtlCommand *> group = CtlCommandTable::group(m_args.command);
    // A line with no command at all gets the whole usage. A command (or a `help` topic) it
    // does not know gets a pointer to it, so its message stays in sight.
    if (m_args.command.isEmpty() && !m_command) {
        CtlHelp::print(CtlHelp::usage(), stderr);
        return;
    }
    if ((!m_command && group.isEmpty()) || (m_command && m_command->run == &CtlCommands::help)) {
        CtlHelp::print(u"`capdeskctl help` lists the commands and what each does.\n"_s, stderr);
        return;
    }
    QString text;
    for (const CtlCommand *command : m_command ? QList<const CtlCommand *>{m_command} : group)
        text += CtlHelp::usageOf(*command);
    const QString name = m_command ? m_command->name : m_args.command;
    CtlHelp::print(text + u"`capdeskctl help %1` says what it does and the options it takes.\n"_s.arg(name),
                   stderr);
}

int CtlCommands::runCommand()
{
    if (!m_args.error.isEmpty()) {
        // Named, if the line names one, for the usage that follows the message.
        QString unknown;
        m_command = CtlCommandTable::resolve(m_args.command, m_args.positional, &unknown);
        // A flag the command does not take at all says that first: its value is beside
        // the point.
        if (m_command && !m_args.flagGivenValue.isEmpty() && !applies(*m_command, m_args.flagGivenValue))
            return CtlOutput::usage(u"%1 does not apply to %2"_s.arg(m_args.flagGivenValue, m_command->name));
        return CtlOutput::usage(m_args.error);
    }
    if (m_args.version) {
        CtlHelp::print(u"capdeskctl "_s + ProductVersion::number() + u'\n', stdout);
        return Ok;
    }
    if (m_args.help && m_args.command.isEmpty()) {
        CtlHelp::print(CtlHelp::usage(), stdout);
        return Ok;
    }
    QString error;
    m_command = CtlCommandTable::resolve(m_args.command, m_args.positional, &error);
    // `token --help` is the help of the whole group, as `help token` is.
    const QList<const CtlCommand *> group = CtlCommandTable::group(m_args.command);
    if (!m_command && !(m_args.help && !group.isEmpty()))
        return CtlOutput::usage(error);
    if (m_args.help) {
        CtlHelp::print(CtlHelp::command(m_command ? QList<const CtlCommand *>{m_command} : group), stdout);
        return Ok;
    }
    if (const int refused = refuseOptions(*m_command))
        return refused;
    // Help needs no directory: it is answered before any server is asked.
    if (m_command->run == &CtlCommands::help)
        return help();
    if (m_command->run == &CtlCommands::completion)
        return completion();
    if (m_args.has(u"--server"_s)) {
        if (m_args.has(u"--db"_s))
            return CtlOutput::usage(u"--db and --server name two directories; give one"_s);
        const StoreResult<std::shared_ptr<ServerConnection>> connection = CtlServerCommands::connect(m_args);
        if (!connection.ok())
            return CtlOutput::usage(connection.error().message);
        m_connection = connection.value();
        if (m_command->server == CtlCommand::Server::LocalOnly)
            return CtlOutput::usage(
                !m_command->serverRefusal.isEmpty()
                    ? m_command->serverRefusal
                    : u"%1 works on a local directory file only (--db), not with --server"_s.arg(
                        m_command->name));
    }
    if (const int refused = refuseTokenToBridge())
        return refused;
    if (const int refused = readTokenFile())
        return refused;
    return (this->*m_command->run)();
}

// Before the token file is read, so a path that is wrong does not hide this.
int CtlCommands::refuseTokenToBridge() const
{
    if (!m_connection || m_command->run != &CtlCommands::mcp
        || (!m_args.has(u"--token"_s) && !m_args.has(u"--token-file"_s)))
        return Ok;
    return CtlOutput::usage(u"mcp --server serves with the owner key; a token is gated by the server, "
                            "so hand the token to the client instead"_s);
}

// --token-file stands for --token from here on, so every check and message of a token
// holds for both.
int CtlCommands::readTokenFile()
{
    if (!m_args.has(u"--token-file"_s))
        return Ok;
    if (m_args.has(u"--token"_s))
        return CtlOutput::usage(u"give the token one way: --token or --token-file"_s);
    QString error;
    const std::optional<QByteArray> token =
        SecretLineFile::read(m_args.value(u"--token-file"_s), u"token"_s, &error);
    if (!token)
        return CtlOutput::usage(error);
    m_args.values.insert(u"--token"_s, QString::fromLatin1(*token));
    m_args.given.insert(u"--token"_s);
    return Ok;
}

bool CtlCommands::applies(const CtlCommand &command, const QString &option)
{
    const QList<QCommandLineOption> &common = CtlCommandTable::commonOptions();
    return command.takes(option)
           || std::any_of(common.cbegin(), common.cend(), [&option](const QCommandLineOption &c) {
                  return option == u"--"_s + c.names().constLast();
              });
}

int CtlCommands::refuseOptions(const CtlCommand &command) const
{
    for (const QString &option : std::as_const(m_args.given)) {
        if (!applies(command, option))
            return CtlOutput::usage(u"%1 does not apply to %2"_s.arg(option, command.name));
        if (m_args.value(option).isEmpty() && !command.emptyValues.contains(option)) {
            const QList<QCommandLineOption> all = CtlCommandTable::allOptions();
            const bool takesValue =
                std::any_of(all.cbegin(), all.cend(), [&option](const QCommandLineOption &o) {
                    return option == u"--"_s + o.names().constLast() && !o.valueName().isEmpty();
                });
            if (takesValue)
                return CtlOutput::usage(u"%1 needs a value"_s.arg(option));
        }
    }
    if (m_args.has(u"--ca-file"_s) && !m_args.has(u"--server"_s))
        return CtlOutput::usage(u"--ca-file goes with --server URL"_s);
    return Ok;
}

QString CtlCommands::dbPath() const
{
    return m_args.has(u"--db"_s) ? m_args.value(u"--db"_s) : DefaultLocations::directoryFile();
}

bool CtlCommands::openStore(bool mayCreate)
{
    const QString path = dbPath();
    // A PostgreSQL database is there or not on its server; the store says which.
    const bool isFile = !PostgresLocation::isUrl(path);
    if (isFile && !mayCreate && !QFileInfo::exists(path)) {
        m_exit = CtlOutput::fail(
            StoreError::make(StoreError::Kind::NotFound,
                             QStringLiteral("no directory at %1 (capdeskctl init creates one)").arg(path)));
        return false;
    }
    if (isFile)
        QDir().mkpath(QFileInfo(path).absolutePath());
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened = SqlDirectoryStore::open(
        path, KeychainPasswords::lookup(),
        mayCreate ? SqlDirectoryStore::Creation::Allowed : SqlDirectoryStore::Creation::Existing);
    if (!opened.ok()) {
        m_exit = CtlOutput::fail(opened.error());
        return false;
    }
    m_store = opened.value();
    return true;
}

bool CtlCommands::openDirectory(bool mayCreate)
{
    if (m_connection) {
        m_directory = std::make_shared<RemoteDirectoryStore>(m_connection);
        return true;
    }
    if (!openStore(mayCreate))
        return false;
    m_directory = m_store;
    return true;
}

std::shared_ptr<DirectoryLedger> CtlCommands::ledger()
{
    if (!m_ledger)
        m_ledger = CtlLedger::open(m_store, m_args);
    return m_ledger;
}

bool CtlCommands::expectPositional(int count)
{
    if (m_args.positional.size() == count)
        return true;
    m_exit = CtlOutput::usage(wrongCount(count, count));
    return false;
}

// What a line given `min`..`max` arguments (the subcommand of a group counted) lacks or has
// too many of, named from the command's own synopsis.
QString CtlCommands::wrongCount(int min, int max) const
{
    const QStringList &given = m_args.positional;
    if (given.size() > max)
        return u"'%1' is one argument too many for %2"_s.arg(given.at(max), m_command->name);
    QStringList operands;
    for (const QString &word : m_command->arguments.split(u' ', Qt::SkipEmptyParts)) {
        if (word.startsWith(u'[') || word.startsWith(u'-') || word.startsWith(u'<'))
            break;
        operands.append(word);
    }
    // A group's subcommand is the first positional argument but not in the synopsis.
    const qsizetype sub = m_command->name.count(u' ');
    const QStringList missing = operands.mid(std::max<qsizetype>(0, given.size() - sub));
    return missing.isEmpty() ? u"%1 needs %2 arguments"_s.arg(m_command->name).arg(min)
                             : u"%1 needs %2"_s.arg(m_command->name, missing.join(u' '));
}

int CtlCommands::init()
{
    if (!expectPositional(0) || !openStore(true))
        return m_exit;
    int rows = 0;
    m_store->scanSummaries([&rows](const RowSummary &) { ++rows; });
    if (m_args.has(u"--sample"_s)) {
        if (rows > 0)
            return CtlOutput::fail(
                invalid(QStringLiteral("%1 already holds %2 rows; --sample fills only an empty directory")
                            .arg(dbPath())
                            .arg(rows)));
        const StoreResult<QList<Row>> sample = SampleDirectory::rows();
        if (!sample.ok())
            return CtlOutput::fail(sample.error());
        const StoreError error = m_store->importRows(sample.value());
        if (error.isError())
            return CtlOutput::fail(error);
        rows = int(sample.value().size());
    }
    CtlOutput::printJson(QJsonObject{
        {QStringLiteral("ok"), true}, {QStringLiteral("db"), dbPath()}, {QStringLiteral("rows"), rows}});
    return Ok;
}

int CtlCommands::importFile()
{
    if (!expectPositional(1))
        return m_exit;
    const QString file = m_args.positional.first();
    if (!QFileInfo(file).isFile())
        return CtlOutput::fail(
            StoreError::make(StoreError::Kind::NotFound, QStringLiteral("no file %1").arg(file)));
    if (!openDirectory(true))
        return m_exit;
    ImportOptions options;
    options.allowNoncompliant = m_args.has(QStringLiteral("--allow-noncompliant"));
    options.restamp = m_args.has(QStringLiteral("--restamp"));
    const StoreResult<ImportReport> imported = DirectoryImporter::importFile(*m_directory, file, options);
    if (!imported.ok())
        return CtlOutput::fail(imported.error());
    CtlOutput::printJson(imported.value().toJson());
    return Ok;
}

int CtlCommands::exportRows()
{
    const QString format = m_args.has(u"--format"_s) ? m_args.value(u"--format"_s) : u"json"_s;
    const QString outFile = m_args.value(u"--out"_s);
    if (format != QLatin1String("json") && format != QLatin1String("sql"))
        return CtlOutput::usage(QStringLiteral("--format is json or sql, not '%1'").arg(format));
    if (!expectPositional(0))
        return m_exit;
    if (!m_connection && !outFile.isEmpty()
        && QFileInfo(outFile).absoluteFilePath() == QFileInfo(dbPath()).absoluteFilePath())
        return CtlOutput::usage(
            QStringLiteral("--out names the directory file itself; exporting there would destroy it"));
    if (!openDirectory())
        return m_exit;
    const StoreResult<QByteArray> exported = DirectoryExporter::exportBytes(
        *m_directory,
        format == QLatin1String("sql") ? DirectoryExporter::Format::Sql : DirectoryExporter::Format::Json);
    if (!exported.ok())
        return CtlOutput::fail(exported.error());
    const QByteArray &bytes = exported.value();
    if (outFile.isEmpty()) {
        CtlOutput::printRaw(bytes);
        return Ok;
    }
    QFile out(outFile);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(bytes) != bytes.size()
        || !out.flush())
        return CtlOutput::fail(StoreError::make(
            StoreError::Kind::Io, QStringLiteral("cannot write %1: %2").arg(outFile, out.errorString())));
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true},
                                     {QStringLiteral("bytes"), double(bytes.size())},
                                     {QStringLiteral("out"), outFile}});
    return Ok;
}

int CtlCommands::get()
{
    if (!expectPositional(1) || !openDirectory())
        return m_exit;
    const StoreResult<Row> row = m_directory->row(m_args.positional.first());
    if (!row.ok())
        return CtlOutput::fail(row.error());
    CtlOutput::printJson(row.value().toJson());
    return Ok;
}

int CtlCommands::put()
{
    if (!expectPositional(0))
        return m_exit;
    const StoreResult<QJsonObject> object = readStdinObject(QStringLiteral("row object"));
    if (!object.ok())
        return CtlOutput::fail(object.error(), CtlOutput::Usage);
    QString error;
    const std::optional<Row> row = Row::fromJson(object.value(), &error);
    if (!row)
        return CtlOutput::fail(invalid(error));
    if (!openDirectory())
        return m_exit;
    const StoreResult<WriteOutcome> written = m_directory->put(*row);
    if (!written.ok())
        return CtlOutput::fail(written.error());
    CtlOutput::printJson(writeOutcome(written.value()));
    return Ok;
}

int CtlCommands::patch()
{
    if (!expectPositional(1))
        return m_exit;
    const StoreResult<QJsonObject> fields = readStdinObject(QStringLiteral("object of fields"));
    if (!fields.ok())
        return CtlOutput::fail(fields.error(), CtlOutput::Usage);
    if (!openDirectory())
        return m_exit;
    const StoreResult<WriteOutcome> written = m_directory->patch(m_args.positional.first(), fields.value());
    if (!written.ok())
        return CtlOutput::fail(written.error());
    // Production's PATCH drops fields outside its allow-list; say which, never silently.
    QStringList ignored;
    for (auto it = fields.value().constBegin(); it != fields.value().constEnd(); ++it) {
        if (!RowSchema::patchableFields().contains(it.key()))
            ignored.append(it.key());
    }
    QJsonObject output = writeOutcome(written.value());
    if (!ignored.isEmpty()) {
        output.insert(QStringLiteral("ignored"), QJsonArray::fromStringList(ignored));
        std::fprintf(stderr, "capdeskctl: not patchable, ignored: %s\n",
                     qUtf8Printable(ignored.join(QStringLiteral(", "))));
    }
    CtlOutput::printJson(output);
    return Ok;
}

int CtlCommands::remove()
{
    if (!expectPositional(1) || !openDirectory())
        return m_exit;
    const QString key = m_args.positional.first();
    const StoreError error = m_directory->remove(key);
    if (error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(QJsonObject{
        {QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}});
    return Ok;
}

int CtlCommands::invoke()
{
    if (m_args.positional.isEmpty() || m_args.positional.size() > 2)
        return CtlOutput::usage(wrongCount(1, 2));
    // A token is presented for an audience: without one the call could only be refused.
    if (m_args.has(u"--token"_s) && !m_args.has(u"--audience"_s))
        return CtlOutput::usage(m_args.has(u"--token-file"_s)
                                    ? u"invoke --token-file FILE needs --audience A"_s
                                    : u"invoke --token T needs --audience A"_s);
    // An id is what `token list` shows; the value was shown once, at creation.
    if (const QString token = m_args.value(u"--token"_s); token.startsWith(u"tok_"_s))
        return CtlOutput::usage(
            u"%1 is a token's id; --token takes the token's value, shown once when it was made"_s.arg(token));
    // Without a token the call is the owner's, and these would be silently ignored.
    for (const QString &option : {u"--audience"_s, u"--owner-present"_s}) {
        if (m_args.has(option) && !m_args.has(u"--token"_s))
            return CtlOutput::usage(u"%1 applies to a call with --token T"_s.arg(option));
    }
    if (m_connection)
        return CtlServerCommands(m_args, m_connection).invoke();
    QString limitsError;
    const std::optional<DispatchLimits> limits = CtlDispatchLimits::parse(m_args, &limitsError);
    if (!limits) {
        m_exit = CtlOutput::usage(limitsError);
        return m_exit;
    }
    if (!openStore())
        return m_exit;
    QSettings settings;
    StandardDispatcher dispatcher(m_store, ledger(), AgentEndpoints::fromSettings(settings), *limits);
    InvocationRequest request;
    request.key = m_args.positional.at(0);
    request.body = m_args.positional.value(1);
    request.shape = m_args.has(u"--shape"_s);
    request.token = m_args.value(QStringLiteral("--token"));
    request.audience = m_args.value(QStringLiteral("--audience"));
    request.ownerPresent = m_args.has(QStringLiteral("--owner-present"));
    InvocationHandle *handle = dispatcher.invoke(request);
    QEventLoop loop;
    QObject::connect(handle, &InvocationHandle::finished, &loop, &QEventLoop::quit);
    if (!handle->isFinished())
        loop.exec();
    const InvocationOutcome outcome = handle->outcome();
    delete handle;

    CtlOutput::printJson(outcome.toResponse());
    if (!outcome.refusal.isEmpty()) {
        CtlOutput::note(CtlRefusalNote::forReason(outcome.refusal));
        return outcome.refusalStatus == 404 ? CtlOutput::NotFound : CtlOutput::Refused;
    }
    return outcome.result.isFailure() || (!outcome.shape && !outcome.receipt) ? CtlOutput::Findings : Ok;
}

int CtlCommands::receiptCommand(int (CtlReceiptCommands::*command)())
{
    if (!openStore())
        return m_exit;
    CtlReceiptCommands commands(m_args, ledger());
    return (commands.*command)();
}

int CtlCommands::verifyReceipt()
{
    // With a public key file the check is offline: no directory is needed.
    if (!m_args.has(QStringLiteral("--public-key")) && !openStore())
        return m_exit;
    CtlReceiptCommands commands(m_args, m_store ? ledger() : nullptr);
    return commands.verifyReceipt();
}

int CtlCommands::publicKey()
{
    if (!expectPositional(0) || !openStore())
        return m_exit;
    return CtlKeyCommands(m_args, ledger()).publicKey();
}

int CtlCommands::signingKeyNew()
{
    if (!expectPositional(1) || !openStore())
        return m_exit;
    return CtlKeyCommands(m_args, ledger()).startNew();
}

int CtlCommands::log()
{
    if (!openStore())
        return m_exit;
    return CtlLogCommand(m_args, m_store, ledger()).run();
}

int CtlCommands::migrate()
{
    return CtlMigrateCommand(m_args).run();
}

int CtlCommands::restore()
{
    if (!expectPositional(2))
        return m_exit;
    const QString key = m_args.positional.at(0);
    const QString seqText = m_args.positional.at(1);
    bool ok = !seqText.isEmpty()
              && std::all_of(seqText.cbegin(), seqText.cend(), [](QChar c) { return c.isDigit(); });
    const qint64 seq = ok ? seqText.toLongLong(&ok) : 0;
    if (!ok || seq < 1)
        return CtlOutput::usage(
            QStringLiteral("SEQ is an event's seq, a whole number from 1 (see log --key %1)").arg(key));
    if (!openStore())
        return m_exit;
    const StoreResult<QList<LogEvent>> events = DirectoryHistory(m_store).events(key);
    if (!events.ok())
        return CtlOutput::fail(events.error());
    const StoreResult<Row> version = RowRestore::version(events.value(), key, seq);
    if (!version.ok())
        return CtlOutput::fail(version.error());
    const StoreResult<Row> current = m_store->row(key);
    if (!current.ok())
        return CtlOutput::fail(current.error());
    const Row restored = RowRestore::onto(current.value(), version.value());
    QJsonObject output{
        {QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("restores_seq"), seq}};
    if (restored == current.value()) {
        output.insert(QStringLiteral("unchanged"), true);
        output.insert(QStringLiteral("updated_at"), current.value().updatedAt);
        CtlOutput::printJson(output);
        return Ok;
    }
    ApplyTracking tracking;
    const StoreError written =
        m_store->applyTracked({RowChange::restore(restored, current.value().updatedAt, seq)}, tracking);
    if (written.isError())
        return CtlOutput::fail(written);
    output.insert(QStringLiteral("updated_at"), tracking.written.value(0).updatedAt);
    CtlOutput::printJson(output);
    return Ok;
}

int CtlCommands::lintCommand(int (CtlLintCommands::*command)())
{
    if (!openDirectory())
        return m_exit;
    CtlLintCommands commands(m_args, m_directory);
    return (commands.*command)();
}

int CtlCommands::lint()
{
    return lintCommand(&CtlLintCommands::lint);
}

int CtlCommands::contract()
{
    return lintCommand(&CtlLintCommands::contract);
}

int CtlCommands::mcpTools()
{
    return lintCommand(&CtlLintCommands::mcpTools);
}

int CtlCommands::flowPlan()
{
    if (!openDirectory())
        return m_exit;
    return CtlFlowPlanCommand(m_args, m_directory).run();
}

int CtlCommands::mcp()
{
    if (!expectPositional(0))
        return m_exit;
    if (m_connection)
        return CtlMcpCommand(m_args).runBridge(m_connection);
    if (!openStore())
        return m_exit;
    return CtlMcpCommand(m_args).runLocal(m_store, ledger(), dbPath());
}

int CtlCommands::serve()
{
    return CtlServeCommand(m_args).run();
}

int CtlCommands::receipts()
{
    return receiptCommand(&CtlReceiptCommands::receipts);
}

int CtlCommands::confirm()
{
    if (m_connection && m_args.has(QStringLiteral("--archive")))
        return CtlOutput::usage(
            QStringLiteral("--archive checks a segment file against a local directory; it "
                           "takes --db, not --server"));
    if (m_connection)
        return CtlServerCommands(m_args, m_connection).confirm();
    return receiptCommand(&CtlReceiptCommands::confirm);
}

int CtlCommands::tokenCommand(int (CtlTokenCommands::*command)())
{
    if (!openStore())
        return m_exit;
    CtlTokenCommands commands(m_args, ledger());
    return (commands.*command)();
}

// Said before the directory is opened, so a mistyped option creates no file.
int CtlCommands::tokenCreate()
{
    if (!expectPositional(1))
        return m_exit;
    if (const QString mistake = CtlTokenOptions::mistake(m_args, QDateTime::currentDateTimeUtc());
        !mistake.isEmpty())
        return CtlOutput::usage(mistake);
    return tokenCommand(&CtlTokenCommands::create);
}

int CtlCommands::tokenList()
{
    return expectPositional(1) ? tokenCommand(&CtlTokenCommands::list) : m_exit;
}

int CtlCommands::tokenRevoke()
{
    if (!expectPositional(2))
        return m_exit;
    // A value pasted here must not be printed back: it is the secret itself.
    if (m_args.positional.at(1).startsWith(u"cdt_"_s))
        return CtlOutput::usage(u"token revoke takes the token's id (tok_… in token list), not its value"_s);
    return tokenCommand(&CtlTokenCommands::revoke);
}

int CtlCommands::help()
{
    if (m_args.has(u"--man"_s)) {
        if (!m_args.positional.isEmpty())
            return CtlOutput::usage(u"help --man prints the whole manual; it takes no command"_s);
        CtlHelp::print(CtlManPage::render(), stdout);
        return Ok;
    }
    if (m_args.positional.isEmpty()) {
        CtlHelp::print(CtlHelp::usage(), stdout);
        return Ok;
    }
    const QString name = m_args.positional.join(u' ');
    if (const CtlCommand *command = CtlCommandTable::find(name)) {
        CtlHelp::print(CtlHelp::command({command}), stdout);
        return Ok;
    }
    const QList<const CtlCommand *> group = CtlCommandTable::group(name);
    if (group.isEmpty())
        return CtlOutput::usage(u"help: no command '%1'"_s.arg(name));
    CtlHelp::print(CtlHelp::command(group), stdout);
    return Ok;
}

int CtlCommands::completion()
{
    if (m_args.positional != QStringList{u"bash"_s})
        return CtlOutput::usage(u"completion writes a script for one shell, bash"_s);
    CtlHelp::print(CtlCompletion::bash(), stdout);
    return Ok;
}
