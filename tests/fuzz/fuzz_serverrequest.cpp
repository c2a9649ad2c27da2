#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "server/directoryserver.h"
#include "server/ownerkey.h"
#include "server/serveoptions.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/support/rawsql.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

// The real DirectoryServer, in this process on 127.0.0.1, over the sample directory's fn
// and flow rows (no row reaches the network) plus a row whose stored updated_at carries
// CR LF, as a hostile import or a direct SQL write can leave it. Each input is sent raw on
// a new connection, which is then half-closed once the answers stop; everything the server
// writes back before it closes must be well-formed HTTP/1.1: responses in sequence, each a status line,
// header lines that are `token: value` with no CR, LF or NUL in them and only the headers
// the server is known to send (an injected `Set-Cookie:` line fails), one Content-Length
// that the body matches.
namespace {

const QByteArray kOwnerKey = QByteArrayLiteral("fuzz-owner-key-0123456789abcdef");
constexpr int kDispatchTimeoutMs = 2000;
const char *const kTamperedRow = "INSERT INTO directory (key, type, target, content, updated_at, created_at) "
                                 "VALUES ('EVIL_ETAG', 'fn', 'echo', "
                                 "'# WHAT: echo', '2025-01-01T00:00:00Z' || char(13) || char(10) || "
                                 "'Set-Cookie: pwned=1', '2025-01-01T00:00:00Z')";

struct Harness
{
    QTemporaryDir dir;
    std::shared_ptr<SqlDirectoryStore> store;
    std::shared_ptr<DirectoryLedger> ledger;
    std::unique_ptr<StandardDispatcher> dispatcher;
    std::unique_ptr<DirectoryServer> server;
    quint16 port = 0;
    int reportFd = -1; // stderr, kept for sanitizer reports and broken properties
    int nullFd = -1; // where the access log goes while a request runs
};

Harness *harness = nullptr;

void fatal(const QString &message)
{
    dup2(harness && harness->reportFd >= 0 ? harness->reportFd : STDERR_FILENO, STDERR_FILENO);
    std::fprintf(stderr, "fuzz_serverrequest setup: %s\n", message.toUtf8().constData());
    std::exit(1);
}

Row flowRow(const QString &key, const QString &flow)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("flow");
    row.content = QStringLiteral("# WHAT: a fuzz harness flow\n") + flow;
    row.updatedAt = row.createdAt = QStringLiteral("2025-01-01T00:00:00Z");
    return row;
}

// The red team's flow shapes: a fan-out, a step that doubles $PREV (issue 13 item 3) and
// fan-outs nested in fan-outs (item 4).
QList<Row> attackFlowRows()
{
    QString doubling = QStringLiteral("ECHO: $1$1");
    for (int i = 0; i < 30; ++i)
        doubling += QStringLiteral("\n> ECHO: $PREV$PREV");
    const auto wide = [](const QString &call) {
        QStringList branches;
        for (int i = 0; i < 8; ++i)
            branches.append(call);
        return QStringLiteral("{ ") + branches.join(QStringLiteral(" | ")) + QStringLiteral(" }");
    };
    return {flowRow(QStringLiteral("FUZZ_FANOUT"),
                    QStringLiteral("{ ECHO: $1 | UPPERCASE: $1 | LOWERCASE: $1 } => ALL\n> ECHO: $ALL")),
            flowRow(QStringLiteral("FUZZ_DOUBLING"), doubling),
            flowRow(QStringLiteral("FUZZ_NEST_A"), wide(QStringLiteral("FUZZ_NEST_B: $1"))),
            flowRow(QStringLiteral("FUZZ_NEST_B"), wide(QStringLiteral("ECHO: $1")))};
}

QList<Row> offlineSampleRows()
{
    const StoreResult<QList<Row>> sample = SampleDirectory::rows();
    if (!sample.ok())
        fatal(sample.error().message);
    QList<Row> rows;
    for (const Row &row : sample.value()) {
        if (row.type == QLatin1String("fn") || row.type == QLatin1String("flow"))
            rows.append(row);
    }
    return rows + attackFlowRows();
}

void setUp()
{
    harness = new Harness;
    const QString path = harness->dir.filePath(QStringLiteral("fuzz.db"));
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened = SqlDirectoryStore::open(path);
    if (!opened.ok())
        fatal(opened.error().message);
    harness->store = opened.value();
    const StoreError imported = harness->store->importRows(offlineSampleRows());
    if (imported.isError())
        fatal(imported.message);
    const QString tampered = RawSql::exec(path, {QString::fromLatin1(kTamperedRow)});
    if (!tampered.isEmpty())
        fatal(tampered);
    harness->ledger = std::make_shared<DirectoryLedger>(harness->store);
    harness->dispatcher = std::make_unique<StandardDispatcher>(harness->store, harness->ledger);
    ServeOptions options;
    options.port = 0;
    options.dispatchTimeoutMs = kDispatchTimeoutMs;
    options.limits.idleTimeoutMs = 500;
    harness->server = std::make_unique<DirectoryServer>(options, OwnerKey(kOwnerKey), harness->store,
                                                        harness->ledger, *harness->dispatcher);
    QString error;
    if (!harness->server->start(&error))
        fatal(error);
    harness->port = QUrl(harness->server->baseUrl()).port();
    harness->reportFd = dup(STDERR_FILENO);
    harness->nullFd = open("/dev/null", O_WRONLY);
    __sanitizer_set_report_fd(reinterpret_cast<void *>(static_cast<intptr_t>(harness->reportFd)));
}

// The input on a fresh connection, half-closed after it; every byte the server sends
// until it closes.
struct Exchange
{
    QByteArray received;
    bool hung = false; // still connected 5 s after the half-close
};

Exchange exchange(const QByteArray &request)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, harness->port);
    if (!socket.waitForConnected(2000))
        fatal(QStringLiteral("cannot connect: ") + socket.errorString());
    Exchange result;
    QByteArray &received = result.received;
    QEventLoop loop;
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] { received += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    socket.write(request);
    socket.flush();
    // Qt drops what it has not yet written once it reads the end of the stream, so the
    // half-close waits until the answers stop coming: 20 ms after the last byte, or as
    // long as a dispatch may take. Without a blank line there is no request to answer.
    if (request.contains("\n\r\n") || request.contains("\n\n")) {
        QTimer quiet;
        quiet.setSingleShot(true);
        QObject::connect(&quiet, &QTimer::timeout, &loop, &QEventLoop::quit);
        QObject::connect(&socket, &QTcpSocket::readyRead, &quiet, [&quiet] { quiet.start(20); });
        quiet.start(request.contains("/api/dispatch") ? kDispatchTimeoutMs + 500 : 100);
        loop.exec();
    }
    if (socket.state() == QAbstractSocket::ConnectedState) {
        ::shutdown(int(socket.socketDescriptor()), SHUT_WR);
        QTimer deadline;
        deadline.setSingleShot(true);
        bool timedOut = false;
        QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
            timedOut = true;
            loop.quit();
        });
        deadline.start(5000);
        loop.exec();
        result.hung = timedOut && socket.state() == QAbstractSocket::ConnectedState;
    }
    received += socket.readAll();
    return result;
}

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

// Every header the server writes; a new one is added here on purpose, so a header line
// that arrives by injection is caught.
bool isKnownHeader(const QByteArray &name)
{
    static const QByteArrayList known{"allow",
                                      "cache-control",
                                      "connection",
                                      "content-length",
                                      "content-security-policy",
                                      "content-type",
                                      "etag",
                                      "location",
                                      "retry-after",
                                      "x-content-type-options",
                                      "transfer-encoding"};
    return known.contains(name.toLower());
}

// One response starting at `at`; returns where the next one starts.
qsizetype checkResponse(const QByteArray &bytes, qsizetype at)
{
    const qsizetype headEnd = bytes.indexOf("\r\n\r\n", at);
    FUZZ_CHECK(headEnd >= 0, QStringLiteral("a response without the blank line ending its headers: ")
                                 + QString::fromLatin1(bytes.mid(at, 200)));
    const QList<QByteArray> lines = bytes.mid(at, headEnd - at).split('\n');
    QList<QByteArray> clean;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines[i];
        FUZZ_CHECK(i == lines.size() - 1 ? !line.endsWith('\r') : line.endsWith('\r'),
                   QStringLiteral("a bare LF in the head: ") + QString::fromLatin1(line));
        if (line.endsWith('\r'))
            line.chop(1);
        FUZZ_CHECK(!line.contains('\r') && !line.contains('\0'),
                   QString::fromLatin1(line.toPercentEncoding()));
        clean.append(line);
    }
    const QByteArray &status = clean.first();
    FUZZ_CHECK(status.size() >= 12 && status.startsWith("HTTP/1.1 ") && status[9] >= '1' && status[9] <= '5'
                   && std::isdigit(static_cast<unsigned char>(status[10]))
                   && std::isdigit(static_cast<unsigned char>(status[11]))
                   && (status.size() == 12 || status[12] == ' '),
               QString::fromLatin1(status));
    const int code = status.mid(9, 3).toInt();
    qint64 contentLength = -1;
    for (qsizetype i = 1; i < clean.size(); ++i) {
        const QByteArray &line = clean[i];
        const qsizetype colon = line.indexOf(':');
        FUZZ_CHECK(colon > 0, QStringLiteral("not a header line: ") + QString::fromLatin1(line));
        const QByteArray name = line.left(colon);
        FUZZ_CHECK(std::all_of(name.begin(), name.end(), isTokenChar), QString::fromLatin1(name));
        FUZZ_CHECK(isKnownHeader(name),
                   QStringLiteral("a header the server does not send: ") + QString::fromLatin1(line));
        if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
            FUZZ_CHECK(contentLength < 0, QStringLiteral("two Content-Length headers"));
            bool ok = false;
            contentLength = line.mid(colon + 1).trimmed().toLongLong(&ok);
            FUZZ_CHECK(ok && contentLength >= 0, QString::fromLatin1(line));
        }
    }
    FUZZ_CHECK(!(code == 204 || code == 304) || contentLength < 0, QString::fromLatin1(status));
    qsizetype next = headEnd + 4;
    // A HEAD answer announces the GET's length and sends no body.
    const bool bodyless = next == bytes.size() || bytes.mid(next).startsWith("HTTP/1.1 ");
    if (contentLength > 0 && !bodyless) {
        FUZZ_CHECK(bytes.size() - next >= contentLength,
                   QStringLiteral("a body shorter than its Content-Length %1").arg(contentLength));
        next += contentLength;
    }
    return next;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    setUp();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const QByteArray request(reinterpret_cast<const char *>(data), qsizetype(size));
    dup2(harness->nullFd, STDERR_FILENO);
    const Exchange answered = exchange(request);
    dup2(harness->reportFd, STDERR_FILENO);
    // Replaying one input with FUZZ_SHOW_RESPONSE=1 shows what the server answered.
    static const bool show = qEnvironmentVariableIsSet("FUZZ_SHOW_RESPONSE");
    if (show)
        std::fprintf(stderr, "%s\n", answered.received.left(4096).constData());
    FUZZ_CHECK(!answered.hung,
               QStringLiteral("the server neither answered nor closed within 5 s of the half-close"));
    for (qsizetype at = 0; at < answered.received.size();)
        at = checkResponse(answered.received, at);
    return 0;
}
