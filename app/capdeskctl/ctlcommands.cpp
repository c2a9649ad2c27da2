#include "ctlcommands.h"

#include "ctloutput.h"
#include "defaultlocations.h"
#include "directoryexporter.h"
#include "directoryimporter.h"
#include "jsontextcheck.h"
#include "sampledirectory.h"
#include "sqlitedirectorystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

#include <functional>

namespace {

using CtlOutput::Ok;

StoreError invalid(const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, message);
}

// The one JSON object put and patch read from stdin.
StoreResult<QJsonObject> readStdinObject(const QString &what)
{
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return invalid(QStringLiteral("cannot read stdin"));
    const JsonTextCheck json = JsonTextCheck::parse(QString::fromUtf8(in.readAll()));
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
    if (!m_args.server.isEmpty())
        return CtlOutput::usage(QStringLiteral("--server: remote directories arrive with remote mode; use --db"));

    const QHash<QString, std::function<int()>> commands{
        {QStringLiteral("init"), [this] { return init(); }},
        {QStringLiteral("import"), [this] { return importFile(); }},
        {QStringLiteral("export"), [this] { return exportRows(); }},
        {QStringLiteral("get"), [this] { return get(); }},
        {QStringLiteral("put"), [this] { return put(); }},
        {QStringLiteral("patch"), [this] { return patch(); }},
        {QStringLiteral("delete"), [this] { return remove(); }},
    };
    const auto command = commands.constFind(m_args.command);
    if (command == commands.constEnd())
        return CtlOutput::usage(QStringLiteral("unknown command '%1'").arg(m_args.command));
    return (*command)();
}

QString CtlCommands::dbPath() const
{
    return m_args.db.isEmpty() ? DefaultLocations::directoryFile() : m_args.db;
}

bool CtlCommands::openStore()
{
    const QString path = dbPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    StoreResult<std::shared_ptr<SqliteDirectoryStore>> opened = SqliteDirectoryStore::open(path);
    if (!opened.ok()) {
        m_exit = CtlOutput::fail(opened.error());
        return false;
    }
    m_store = opened.value();
    return true;
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
    if (!expectPositional(0, QStringLiteral("init [--sample] [--db FILE]")) || !openStore())
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
    if (!expectPositional(1, QStringLiteral("import FILE [--db FILE]")))
        return m_exit;
    const QString file = m_args.positional.first();
    if (!QFileInfo(file).isFile())
        return CtlOutput::fail(StoreError::make(StoreError::Kind::NotFound, QStringLiteral("no file %1").arg(file)));
    if (!openStore())
        return m_exit;
    const StoreResult<int> imported = DirectoryImporter::importFile(*m_store, file);
    if (!imported.ok())
        return CtlOutput::fail(imported.error());
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true}, {QStringLiteral("imported"), imported.value()}});
    return Ok;
}

int CtlCommands::exportRows()
{
    const QString format = m_args.format.isEmpty() ? QStringLiteral("json") : m_args.format;
    if (format != QLatin1String("json") && format != QLatin1String("sql"))
        return CtlOutput::usage(QStringLiteral("--format is json or sql, not '%1'").arg(format));
    if (!expectPositional(0, QStringLiteral("export [--format json|sql] [--out FILE]")) || !openStore())
        return m_exit;
    const StoreResult<QByteArray> exported = DirectoryExporter::exportBytes(
        *m_store, format == QLatin1String("sql") ? DirectoryExporter::Format::Sql : DirectoryExporter::Format::Json);
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
    if (!expectPositional(1, QStringLiteral("get KEY")) || !openStore())
        return m_exit;
    const StoreResult<Row> row = m_store->row(m_args.positional.first());
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
        return CtlOutput::fail(object.error());
    QString error;
    const std::optional<Row> row = Row::fromJson(object.value(), &error);
    if (!row)
        return CtlOutput::fail(invalid(error));
    if (!openStore())
        return m_exit;
    const StoreResult<WriteOutcome> written = m_store->put(*row);
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
        return CtlOutput::fail(fields.error());
    if (!openStore())
        return m_exit;
    const StoreResult<WriteOutcome> written = m_store->patch(m_args.positional.first(), fields.value());
    if (!written.ok())
        return CtlOutput::fail(written.error());
    CtlOutput::printJson(writeOutcome(written.value()));
    return Ok;
}

int CtlCommands::remove()
{
    if (!expectPositional(1, QStringLiteral("delete KEY")) || !openStore())
        return m_exit;
    const QString key = m_args.positional.first();
    const StoreError error = m_store->remove(key);
    if (error.isError())
        return CtlOutput::fail(error);
    CtlOutput::printJson(QJsonObject{{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}});
    return Ok;
}
