#include "app/capdeskctl/ctlcommands.h"

#include "app/capdeskctl/ctldispatchlimits.h"

#include "app/capdeskctl/ctlflowplancommand.h"
#include "app/capdeskctl/ctlkeycommands.h"
#include "app/capdeskctl/ctllintcommands.h"
#include "app/capdeskctl/ctllogcommand.h"
#include "app/capdeskctl/ctloutput.h"
#include "app/capdeskctl/ctlservecommand.h"
#include "app/capdeskctl/ctlservercommands.h"
#include "app/capdeskctl/ctltokencommands.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directoryexporter.h"
#include "dispatch/store/directoryimporter.h"
#include "dispatch/json/jsontextcheck.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/row/rowschema.h"
#include "dispatch/call/invocationhandle.h"
#include "remote/remotedirectorystore.h"
#include "dispatch/store/sqlitedirectorystore.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/core/utf8text.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSettings>
#include <QJsonObject>

#include <functional>

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
        return invalid(QStringLiteral("stdin holds more than %1 MiB; expected one %2").arg(kMaxStdinBytes >> 20).arg(what));
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
    if (!m_args.error.isEmpty())
        return CtlOutput::usage(m_args.error);
    if (m_args.help) {
        CtlOutput::printUsage(stdout);
        return Ok;
    }
    if (m_args.has(QStringLiteral("--ca-file")) && m_args.server.isEmpty())
        return CtlOutput::usage(QStringLiteral("--ca-file goes with --server URL"));
    if (!m_args.server.isEmpty()) {
        if (m_args.has(QStringLiteral("--db")))
            return CtlOutput::usage(QStringLiteral("--db and --server name two directories; give one"));
        const StoreResult<std::shared_ptr<ServerConnection>> connection = CtlServerCommands::connect(m_args);
        if (!connection.ok())
            return CtlOutput::usage(connection.error().message);
        m_connection = connection.value();
    }

    const QHash<QString, std::function<int()>> commands{
        {QStringLiteral("init"), [this] { return m_connection ? refuseServer() : init(); }},
        {QStringLiteral("import"), [this] { return importFile(); }},
        {QStringLiteral("export"), [this] { return exportRows(); }},
        {QStringLiteral("get"), [this] { return get(); }},
        {QStringLiteral("put"), [this] { return put(); }},
        {QStringLiteral("patch"), [this] { return patch(); }},
        {QStringLiteral("delete"), [this] { return remove(); }},
        {QStringLiteral("invoke"), [this] { return invoke(); }},
        {QStringLiteral("receipts"),
         [this] { return m_connection ? refuseServer() : receiptCommand(&CtlReceiptCommands::receipts); }},
        {QStringLiteral("confirm"),
         [this] {
             return m_connection ? CtlServerCommands(m_args, m_connection).confirm()
                                 : receiptCommand(&CtlReceiptCommands::confirm);
         }},
        {QStringLiteral("verify-receipt"), [this] { return m_connection ? refuseServer() : verifyReceipt(); }},
        {QStringLiteral("public-key"), [this] { return m_connection ? refuseServer() : publicKey(); }},
        {QStringLiteral("log"), [this] { return m_connection ? refuseServer() : log(); }},
        {QStringLiteral("token"), [this] { return m_connection ? refuseServer() : token(); }},
        {QStringLiteral("flow-plan"), [this] { return flowPlan(); }},
        {QStringLiteral("lint"), [this] { return lintCommand(&CtlLintCommands::lint); }},
        {QStringLiteral("contract"), [this] { return lintCommand(&CtlLintCommands::contract); }},
        {QStringLiteral("mcp-tools"), [this] { return lintCommand(&CtlLintCommands::mcpTools); }},
        {QStringLiteral("serve"), [this] { return m_connection ? refuseServer() : CtlServeCommand(m_args).run(); }},
    };
    const auto command = commands.constFind(m_args.command);
    if (command == commands.constEnd())
        return CtlOutput::usage(QStringLiteral("unknown command '%1'").arg(m_args.command));
    const QHash<QString, QStringList> extraOptions{
        {QStringLiteral("init"), {QStringLiteral("--sample")}},
        {QStringLiteral("import"), {QStringLiteral("--allow-noncompliant"), QStringLiteral("--restamp")}},
        {QStringLiteral("export"), {QStringLiteral("--format"), QStringLiteral("--out")}},
        {QStringLiteral("invoke"),
         QStringList{QStringLiteral("--shape"), QStringLiteral("--token"), QStringLiteral("--audience"),
                     QStringLiteral("--owner-present")}
             + CtlDispatchLimits::options()},
        {QStringLiteral("receipts"), {QStringLiteral("--key"), QStringLiteral("--limit")}},
        {QStringLiteral("verify-receipt"), {QStringLiteral("--public-key")}},
        {QStringLiteral("serve"),
         QStringList{QStringLiteral("--listen"), QStringLiteral("--generate-key"),
                     QStringLiteral("--dispatch-timeout"), QStringLiteral("--idle-timeout"),
                     QStringLiteral("--tls-cert"), QStringLiteral("--tls-key"), QStringLiteral("--request-timeout"),
                     QStringLiteral("--max-connections"), QStringLiteral("--max-connections-per-address"),
                     QStringLiteral("--max-header-bytes"), QStringLiteral("--max-body-bytes"),
                     QStringLiteral("--max-unsent-bytes")}
             + CtlDispatchLimits::options()},
        {QStringLiteral("public-key"), {QStringLiteral("--out")}},
        {QStringLiteral("log"), {QStringLiteral("--key"), QStringLiteral("--verify"), QStringLiteral("--anchor")}},
        {QStringLiteral("token"),
         {QStringLiteral("--audience"), QStringLiteral("--keys"), QStringLiteral("--categories"),
          QStringLiteral("--risk-ceiling"), QStringLiteral("--pin"), QStringLiteral("--fixed-body"),
          QStringLiteral("--payload-ceiling"), QStringLiteral("--expires"), QStringLiteral("--owner-gate"),
          QStringLiteral("--label")}},
    };
    for (const QString &option : std::as_const(m_args.given)) {
        if (option != QLatin1String("--db") && option != QLatin1String("--server")
            && option != QLatin1String("--ca-file") && !extraOptions.value(m_args.command).contains(option))
            return CtlOutput::usage(QStringLiteral("%1 does not apply to %2").arg(option, m_args.command));
    }
    return (*command)();
}

QString CtlCommands::dbPath() const
{
    return m_args.db.isEmpty() ? DefaultLocations::directoryFile() : m_args.db;
}

bool CtlCommands::openStore(bool mayCreate)
{
    const QString path = dbPath();
    if (!mayCreate && !QFileInfo::exists(path)) {
        m_exit = CtlOutput::fail(StoreError::make(StoreError::Kind::NotFound,
                                                  QStringLiteral("no directory at %1 (capdeskctl init creates one)").arg(path)));
        return false;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    StoreResult<std::shared_ptr<SqliteDirectoryStore>> opened = SqliteDirectoryStore::open(path);
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

int CtlCommands::refuseServer() const
{
    if (m_args.command == QLatin1String("receipts"))
        return CtlOutput::usage(QStringLiteral("receipts lists a local directory's receipts only; against a server, "
                                               "check one with confirm INV_ID --server URL (or open its /receipt/INV_ID page)"));
    return CtlOutput::usage(
        QStringLiteral("%1 works on a local directory file only (--db), not with --server").arg(m_args.command));
}

std::shared_ptr<DirectoryLedger> CtlCommands::ledger()
{
    if (!m_ledger)
        m_ledger = std::make_shared<DirectoryLedger>(m_store);
    return m_ledger;
}

bool CtlCommands::expectPositional(int count, const QString &usage)
{
    if (m_args.positional.size() == count)
        return true;
    m_exit = CtlOutput::usage(QStringLiteral("usage: capdeskctl %1").arg(usage));
    return false;
}

int CtlCommands::init()
{
    if (!expectPositional(0, QStringLiteral("init [--sample] [--db FILE]")) || !openStore(true))
        return m_exit;
    int rows = 0;
    m_store->scanSummaries([&rows](const RowSummary &) { ++rows; });
    if (m_args.sample) {
        if (rows > 0)
            return CtlOutput::fail(invalid(QStringLiteral("%1 already holds %2 rows; --sample fills only an empty directory")
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
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true}, {QStringLiteral("db"), dbPath()}, {QStringLiteral("rows"), rows}});
    return Ok;
}

int CtlCommands::importFile()
{
    if (!expectPositional(1, QStringLiteral("import FILE [--allow-noncompliant] [--restamp] [--db FILE]")))
        return m_exit;
    const QString file = m_args.positional.first();
    if (!QFileInfo(file).isFile())
        return CtlOutput::fail(StoreError::make(StoreError::Kind::NotFound, QStringLiteral("no file %1").arg(file)));
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
    const QString format = m_args.format.isEmpty() ? QStringLiteral("json") : m_args.format;
    if (format != QLatin1String("json") && format != QLatin1String("sql"))
        return CtlOutput::usage(QStringLiteral("--format is json or sql, not '%1'").arg(format));
    if (!expectPositional(0, QStringLiteral("export [--format json|sql] [--out FILE]")))
        return m_exit;
    if (!m_connection && !m_args.out.isEmpty() && QFileInfo(m_args.out).absoluteFilePath() == QFileInfo(dbPath()).absoluteFilePath())
        return CtlOutput::usage(QStringLiteral("--out names the directory file itself; exporting there would destroy it"));
    if (!openDirectory())
        return m_exit;
    const StoreResult<QByteArray> exported = DirectoryExporter::exportBytes(
        *m_directory, format == QLatin1String("sql") ? DirectoryExporter::Format::Sql : DirectoryExporter::Format::Json);
    if (!exported.ok())
        return CtlOutput::fail(exported.error());
    const QByteArray &bytes = exported.value();
    if (m_args.out.isEmpty()) {
        CtlOutput::printRaw(bytes);
        return Ok;
    }
    QFile out(m_args.out);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(bytes) != bytes.size() || !out.flush())
        return CtlOutput::fail(StoreError::make(StoreError::Kind::Io,
                                                QStringLiteral("cannot write %1: %2").arg(m_args.out, out.errorString())));
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true},
                                     {QStringLiteral("bytes"), double(bytes.size())},
                                     {QStringLiteral("out"), m_args.out}});
    return Ok;
}

int CtlCommands::get()
{
    if (!expectPositional(1, QStringLiteral("get KEY")) || !openDirectory())
        return m_exit;
    const StoreResult<Row> row = m_directory->row(m_args.positional.first());
    if (!row.ok())
        return CtlOutput::fail(row.error());
    CtlOutput::printJson(row.value().toJson());
    return Ok;
}

int CtlCommands::put()
{
    if (!expectPositional(0, QStringLiteral("put < row.json")))
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
    if (!expectPositional(1, QStringLiteral("patch KEY < fields.json")))
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
        std::fprintf(stderr, "capdeskctl: not patchable, ignored: %s\n", qUtf8Printable(ignored.join(QStringLiteral(", "))));
    }
    CtlOutput::printJson(output);
    return Ok;
}

int CtlCommands::remove()
{
    if (!expectPositional(1, QStringLiteral("delete KEY")) || !openDirectory())
        return m_exit;
    const QString key = m_args.positional.first();
    const StoreError error = m_directory->remove(key);
    if (error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}});
    return Ok;
}

int CtlCommands::invoke()
{
    if (m_args.positional.isEmpty() || m_args.positional.size() > 2) {
        m_exit = CtlOutput::usage(QStringLiteral("usage: capdeskctl invoke KEY [BODY] [--shape]"));
        return m_exit;
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
    request.shape = m_args.shape;
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
    if (!outcome.refusal.isEmpty())
        return outcome.refusalStatus == 404 ? CtlOutput::NotFound : CtlOutput::Refused;
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
    if (!expectPositional(0, QStringLiteral("public-key [--out FILE]")) || !openStore())
        return m_exit;
    return CtlKeyCommands(m_args, m_store).publicKey();
}

int CtlCommands::log()
{
    if (!openStore())
        return m_exit;
    return CtlLogCommand(m_args, m_store, ledger()).run();
}

int CtlCommands::lintCommand(int (CtlLintCommands::*command)())
{
    if (!openDirectory())
        return m_exit;
    CtlLintCommands commands(m_args, m_directory);
    return (commands.*command)();
}

int CtlCommands::flowPlan()
{
    if (!openDirectory())
        return m_exit;
    return CtlFlowPlanCommand(m_args, m_directory).run();
}

int CtlCommands::token()
{
    if (!openStore())
        return m_exit;
    return CtlTokenCommands(m_args, m_store).run();
}
