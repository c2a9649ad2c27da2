#include "app/capdeskctl/ctlservecommand.h"

#include "app/capdeskctl/ctldispatchlimits.h"
#include "app/capdeskctl/ctlledger.h"
#include "app/capdeskctl/ctloutput.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/secrets/keychainpasswords.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/postgreslocation.h"
#include "dispatch/store/sqldirectorystore.h"
#include "server/directoryserver.h"
#include "server/ownerkeyfile.h"
#include "server/servetls.h"
#include "server/signalwatcher.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonObject>
#include <QSettings>
#include <QUrl>

#include <algorithm>
#include <cstdio>
#include <functional>

CtlServeCommand::CtlServeCommand(const CtlArguments &args) : m_args(args) {}

QString CtlServeCommand::readLimits(ServeOptions *options) const
{
    ConnectionLimits &limits = options->limits;
    constexpr qint64 kDay = 24LL * 3600 * 1000;
    constexpr qint64 kGiB = 1024LL * 1024 * 1024;
    struct Limit
    {
        QString option;
        qint64 minimum, maximum;
        std::function<void(qint64)> set;
    };
    const Limit table[] = {
        {QStringLiteral("--dispatch-timeout"), 1, kDay,
         [&](qint64 v) { options->dispatchTimeoutMs = int(v); }},
        {QStringLiteral("--idle-timeout"), 1, kDay, [&](qint64 v) { limits.idleTimeoutMs = int(v); }},
        {QStringLiteral("--request-timeout"), 1, kDay, [&](qint64 v) { limits.requestTimeoutMs = int(v); }},
        {QStringLiteral("--max-connections"), 1, 100000, [&](qint64 v) { limits.maxConnections = int(v); }},
        {QStringLiteral("--max-connections-per-address"), 0, 100000,
         [&](qint64 v) { limits.maxConnectionsPerAddress = int(v); }},
        {QStringLiteral("--max-header-bytes"), 1024, 1024 * 1024,
         [&](qint64 v) { limits.maxHeaderBytes = v; }},
        {QStringLiteral("--max-body-bytes"), 0, kGiB, [&](qint64 v) { limits.maxBodyBytes = v; }},
        {QStringLiteral("--max-unsent-bytes"), 0, kGiB, [&](qint64 v) { limits.maxUnsentBytes = v; }},
    };
    for (const Limit &limit : table) {
        if (!m_args.has(limit.option))
            continue;
        const QString text = m_args.value(limit.option);
        bool ok =
            !text.isEmpty() && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.isDigit(); });
        const qint64 value = ok ? text.toLongLong(&ok) : 0;
        if (!ok || value < limit.minimum || value > limit.maximum)
            return QStringLiteral("%1 wants a whole number from %2 to %3")
                .arg(limit.option)
                .arg(limit.minimum)
                .arg(limit.maximum);
        limit.set(value);
    }
    return {};
}

QString CtlServeCommand::readMcp(ServeOptions *options) const
{
    const std::optional<McpOptions::Projection> projection =
        McpOptions::projectionNamed(m_args.value(QStringLiteral("--mcp-tools")));
    if (!projection)
        return QStringLiteral("--mcp-tools is rows or contract, not '%1'")
            .arg(m_args.value(QStringLiteral("--mcp-tools")));
    options->mcpProjection = *projection;
    options->announceVersion = m_args.has(QStringLiteral("--announce-version"));
    if (!m_args.has(QStringLiteral("--allow-origin")))
        return {};
    for (QString origin : m_args.value(QStringLiteral("--allow-origin")).split(u',')) {
        origin = origin.trimmed();
        while (origin.endsWith(u'/'))
            origin.chop(1);
        const QUrl url(origin, QUrl::StrictMode);
        if (!url.isValid()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            || url.host().isEmpty() || !url.path().isEmpty() || url.hasQuery() || !url.userInfo().isEmpty())
            return QStringLiteral("--allow-origin takes origins such as https://app.example:8443, not '%1'")
                .arg(origin);
        options->allowedOrigins.append(origin);
    }
    return {};
}

QString CtlServeCommand::readOwnerKey(QByteArray *key) const
{
    const QByteArray fromEnvironment = qgetenv("CAPDESK_TERMINAL_KEY");
    const bool fromFile = m_args.has(QStringLiteral("--owner-key-file"));
    const bool generate = m_args.has(QStringLiteral("--generate-key"));
    // systemd's LoadCredential=owner-key:… counts as a source once it is there, so a unit
    // that also sets the environment is refused rather than one key silently winning.
    const QString credential = OwnerKeyFile::credentialPath();
    const bool fromCredential = !credential.isEmpty() && QFileInfo::exists(credential);
    if (int(fromFile) + int(!fromEnvironment.isEmpty()) + int(generate) + int(fromCredential) > 1)
        return QStringLiteral("give the owner key one way: --owner-key-file, CAPDESK_TERMINAL_KEY, the "
                              "systemd credential owner-key or --generate-key");
    if (generate) {
        *key = OwnerKey::generate();
        return {};
    }
    QString source = QStringLiteral("CAPDESK_TERMINAL_KEY");
    const QString path = fromFile ? m_args.value(QStringLiteral("--owner-key-file")) : credential;
    if (!fromEnvironment.isEmpty()) {
        *key = fromEnvironment;
    } else if (fromFile || fromCredential) {
        QString error;
        const std::optional<QByteArray> read = OwnerKeyFile::read(path, &error);
        if (!read)
            return error;
        *key = *read;
        source = QStringLiteral("the owner key in %1").arg(path);
    } else {
        return QStringLiteral("serve needs the owner key: --owner-key-file FILE, CAPDESK_TERMINAL_KEY, a "
                              "systemd credential named owner-key, or --generate-key to make one");
    }
    if (key->size() < OwnerKey::kMinimumLength)
        return QStringLiteral("%1 is shorter than %2 characters; --generate-key makes a strong one")
            .arg(source)
            .arg(OwnerKey::kMinimumLength);
    return {};
}

namespace {

constexpr int kTreeDeadlineMarginMs = 1000;

} // namespace

int CtlServeCommand::run()
{
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage();
    QString error;
    std::optional<QSslConfiguration> tls;
    if (m_args.has(QStringLiteral("--tls-cert")) != m_args.has(QStringLiteral("--tls-key")))
        return CtlOutput::usage(QStringLiteral("--tls-cert and --tls-key go together"));
    if (m_args.has(QStringLiteral("--tls-cert"))) {
        tls = ServeTls::load(m_args.value(QStringLiteral("--tls-cert")),
                             m_args.value(QStringLiteral("--tls-key")), &error);
        if (!tls)
            return CtlOutput::fail(StoreError::make(StoreError::Kind::Invalid, error), CtlOutput::Usage);
    }
    ServeOptions options;
    options.tls = tls;
    if (m_args.has(QStringLiteral("--listen")))
        options = ServeOptions::fromListen(m_args.value(QStringLiteral("--listen")), &error, tls);
    if (!error.isEmpty())
        return CtlOutput::usage(error);
    ServeOptions served = options;
    if (const QString bad = readLimits(&served); !bad.isEmpty())
        return CtlOutput::usage(bad);
    if (const QString bad = readMcp(&served); !bad.isEmpty())
        return CtlOutput::usage(bad);

    std::optional<DispatchLimits> limits = CtlDispatchLimits::parse(m_args, &error);
    if (!limits)
        return CtlOutput::usage(error);
    // The server's own timer answers 504 at the dispatch timeout and cancels the call then.
    // The tree's deadline comes a moment later, as the backstop for work that cancel does not
    // reach: were they equal, which of 504 and ERR: dispatch_timeout answered would be a race.
    limits->timeoutMs = served.dispatchTimeoutMs + kTreeDeadlineMarginMs;

    const bool generate = m_args.has(QStringLiteral("--generate-key"));
    QByteArray key;
    // Its one line, not the whole usage: a unit's journal should show what is wrong.
    if (const QString bad = readOwnerKey(&key); !bad.isEmpty())
        return CtlOutput::fail(StoreError::make(StoreError::Kind::Invalid, bad), CtlOutput::Usage);

    const QString path = m_args.has(QStringLiteral("--db")) ? m_args.value(QStringLiteral("--db"))
                                                            : DefaultLocations::directoryFile();
    if (!PostgresLocation::isUrl(path) && !QFileInfo::exists(path))
        return CtlOutput::fail(
            StoreError::make(StoreError::Kind::NotFound,
                             QStringLiteral("no directory at %1 (capdeskctl init creates one)").arg(path)));
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened =
        SqlDirectoryStore::open(path, KeychainPasswords::lookup(), SqlDirectoryStore::Creation::Existing);
    if (!opened.ok())
        return CtlOutput::fail(opened.error());
    const std::shared_ptr<SqlDirectoryStore> store = opened.value();
    const auto ledger = CtlLedger::open(store, m_args);
    // A named key file is checked before the port opens: a path that holds no key of this
    // directory would otherwise fail every dispatch, each with its own error.
    if (m_args.has(QStringLiteral("--signing-key"))) {
        if (const StoreResult<SigningKey> signing = ledger->signingKey(); !signing.ok())
            return CtlOutput::fail(signing.error());
    }
    QSettings settings;
    StandardDispatcher dispatcher(store, ledger, AgentEndpoints::fromSettings(settings), *limits);

    DirectoryServer server(served, OwnerKey(key), store, ledger, dispatcher);
    if (!server.start(&error))
        return CtlOutput::fail(StoreError::make(StoreError::Kind::Io, error));
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, &server, [&server](int signalNumber) {
        std::fprintf(stderr, "capdeskctl serve: signal %d, finishing running requests\n", signalNumber);
        server.shutdown();
    });
    QObject::connect(&server, &DirectoryServer::drained, qApp, &QCoreApplication::quit);

    // One stable line naming the port actually bound, for scripts and test support.
    std::fprintf(stderr, "capdeskctl: listening on %s\n", qUtf8Printable(server.baseUrl()));
    std::fflush(stderr);
    QJsonObject ready{{QStringLiteral("ok"), true},
                      {QStringLiteral("listening"), server.baseUrl()},
                      {QStringLiteral("db"), path}};
    if (generate)
        ready.insert(QStringLiteral("terminal_key"), QString::fromLatin1(key));
    CtlOutput::printJson(ready);
    std::fflush(stdout);
    return QCoreApplication::exec() == 0 ? CtlOutput::Ok : CtlOutput::Findings;
}
