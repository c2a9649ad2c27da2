#include "tests/app/ctltestsupport.h"
#include "tests/support/serveprocess.h"
#include "tests/support/testcertificates.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslError>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

namespace {

enum class CaFile { None, Option, Environment, MissingOption, MissingEnvironment };

} // namespace

Q_DECLARE_METATYPE(CaFile)
Q_DECLARE_METATYPE(TestCertificates::Server)

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): `--server URL` against a real `capdeskctl serve` over http
// and https, what it refuses, and serve itself.
class TestCapdeskctlServer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void serverModeRunsTheRowCommands();
    void serverModeRefusals_data();
    void serverModeRefusals();
    void serverOverHttps();
    void serverOverHttpsRefusals_data();
    void serverOverHttpsRefusals();
    void localCommandsRefuseAServer_data();
    void localCommandsRefuseAServer();
    void serveOnPortZeroNamesThePortItGot();
    void serveReadsTheOwnerKeyFrom_data();
    void serveReadsTheOwnerKeyFrom();
    void serveRefusesAnOwnerKey_data();
    void serveRefusesAnOwnerKey();
    void serveNamesItsVersionOnlyWhenAsked();

private:
    // A key file in the test's folder with these bytes and permissions.
    QString keyFile(const QString &name, const QByteArray &content, QFileDevice::Permissions permissions);

    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
    TestCertificates m_certificates;
};

void TestCapdeskctlServer::initTestCase()
{
    QString error;
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
}

void TestCapdeskctlServer::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

// SPEC §11's --server: the row commands, invoke and confirm against a real
// `capdeskctl serve`, with the owner key from the environment.
void TestCapdeskctlServer::serverModeRunsTheRowCommands()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    const auto remote = [&](QStringList arguments, const QByteArray &stdinData = {}) {
        arguments << u"--server"_s << server;
        return ctlWithKey(arguments, kServedKey, stdinData);
    };
    const QByteArray row = R"({"key":"ZZ_REMOTE_ECHO","type":"fn","target":"echo","category":"tools",
        "content":"# WHAT: Echo over a server\n# WHEN_TO_USE: tests\n# ARGS: $1=text\n# EX: [ZZ_REMOTE_ECHO]hi[/ZZ_REMOTE_ECHO]\n# OUTPUT: the text",
        "examples":"[\"hi\"]"})";
    ProcessRun::Result run = remote({u"put"_s}, row);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QJsonDocument::fromJson(run.out).object().value(u"created"_s).toBool());
    QCOMPARE(remote({u"patch"_s, u"ZZ_REMOTE_ECHO"_s}, R"({"seq":3})").exitCode, 0);
    run = remote({u"patch"_s, u"ZZ_REMOTE_ECHO"_s}, R"({"runner":"x"})");
    QCOMPARE(run.exitCode, 4);
    QVERIFY(run.err.contains("no recognized fields"));
    run = remote({u"get"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"seq"_s).toInt(), 3);

    run = remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"hello"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject invoked = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(invoked.value(u"result"_s).toString(), u"hello"_s);
    const QJsonObject proof = invoked.value(u"proof"_s).toObject();
    const QString id = proof.value(u"invocation_id"_s).toString();
    QCOMPARE(proof.value(u"public_receipt"_s).toString(), server + u"/receipt/"_s + id);
    run = remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"hello"_s, u"--shape"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"shape"_s), QJsonValue(true));
    // confirm is keyless.
    run = ctlWithKey({u"confirm"_s, id, u"--server"_s, server}, {});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"confirmed"_s), QJsonValue(true));

    QCOMPARE(remote({u"lint"_s, u"ZZ_REMOTE_ECHO"_s}).exitCode, 0);
    run = remote({u"contract"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("ZZ_REMOTE_ECHO"));
    run = remote({u"export"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("\"ZZ_REMOTE_ECHO\""));
    run = remote({u"delete"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"deleted"_s).toInt(), 1);
    QCOMPARE(remote({u"get"_s, u"ZZ_REMOTE_ECHO"_s}).exitCode, 3);
    run = remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"x"_s});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(
        run.err.contains("capdeskctl: nothing ran: this directory has no row with the key ZZ_REMOTE_ECHO"),
        run.err.constData());

    // The key never reaches the server's log, and the write was the server's actor.
    QVERIFY(!serve.standardError().contains(kServedKey));
    QVERIFY(serve.standardError().contains("PATCH /api/directory/ZZ_REMOTE_ECHO 200"));
}

void TestCapdeskctlServer::serverModeRefusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("serverUp");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("wrong key: 4") << QStringList{u"delete"_s, u"ZZ_ANY"_s}
                                  << QByteArray("wrong-wrong-wrong-wrong-key") << true << 4
                                  << u"the server refused the owner key"_s;
    QTest::addRow("no key: 4") << QStringList{u"delete"_s, u"ZZ_ANY"_s} << QByteArray() << true << 4
                               << u"the server wants an owner key and none was given"_s;
    QTest::addRow("empty key: 3") << QStringList{u"get"_s, QString()} << kServedKey << true << 3
                                  << u"no row ''"_s;
    QTest::addRow("contract of an empty key: 3")
        << QStringList{u"contract"_s, QString()} << kServedKey << true << 3 << u"no row ''"_s;
    QTest::addRow("server down: 5") << QStringList{u"get"_s, u"ZZ_ANY"_s} << kServedKey << false << 5
                                    << u"did not answer: connection refused"_s;
    QTest::addRow("receipts are local: 2") << QStringList{u"receipts"_s} << kServedKey << true << 2
                                           << u"receipts lists a local directory's receipts only"_s;
    QTest::addRow("log is local: 2") << QStringList{u"log"_s} << kServedKey << true << 2
                                     << u"log works on a local directory file only"_s;
    QTest::addRow("--db and --server: 2")
        << QStringList{u"get"_s, u"ZZ_ANY"_s, u"--db"_s, u"x.db"_s} << kServedKey << true << 2
        << u"--db and --server name two directories"_s;
}

void TestCapdeskctlServer::serverModeRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, key);
    QFETCH(bool, serverUp);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    if (!serverUp)
        serve.kill();
    const ProcessRun::Result run = ctlWithKey(arguments + QStringList{u"--server"_s, server}, key);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!run.err.contains(kServedKey) && !run.out.contains(kServedKey));
    QCOMPARE(ctlWithKey({u"get"_s, u"ZZ_ANY"_s, u"--server"_s, u"ftp://nowhere"_s}, key).exitCode, 2);
}

// --server https://… with the CA that signed the server's certificate: the row commands
// and invoke work as over http, with --ca-file and with CAPDESK_CA_FILE.
void TestCapdeskctlServer::serverOverHttps()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    serve.setTls(m_certificates.certificateFile(TestCertificates::Server::Loopback),
                 m_certificates.keyFile(TestCertificates::Server::Loopback));
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    QVERIFY(server.startsWith(u"https://127.0.0.1:"_s));
    const QStringList trusted{u"--server"_s, server, u"--ca-file"_s, m_certificates.caFile()};
    const QByteArray row = R"({"key":"ZZ_TLS_ECHO","type":"fn","target":"echo","category":"tools",
        "content":"# WHAT: Echo over HTTPS\n# WHEN_TO_USE: tests\n# ARGS: $1=text\n# EX: [ZZ_TLS_ECHO]hi[/ZZ_TLS_ECHO]\n# OUTPUT: the text",
        "examples":"[\"hi\"]"})";
    ProcessRun::Result run = ctlWithKey(QStringList{u"put"_s} + trusted, kServedKey, row);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(
        ctlWithKey(QStringList{u"patch"_s, u"ZZ_TLS_ECHO"_s} + trusted, kServedKey, R"({"seq":7})").exitCode,
        0);
    run = ctlWithKey(QStringList{u"invoke"_s, u"ZZ_TLS_ECHO"_s, u"over tls"_s} + trusted, kServedKey);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"result"_s).toString(), u"over tls"_s);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    environment.insert(u"CAPDESK_CA_FILE"_s, m_certificates.caFile());
    run = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH),
                          {u"get"_s, u"ZZ_TLS_ECHO"_s, u"--server"_s, server}, {}, environment);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"seq"_s).toInt(), 7);
    QVERIFY(serve.standardError().contains("PATCH /api/directory/ZZ_TLS_ECHO 200"));
}

void TestCapdeskctlServer::serverOverHttpsRefusals_data()
{
    QTest::addColumn<TestCertificates::Server>("certificate");
    QTest::addColumn<CaFile>("caFile");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    using Server = TestCertificates::Server;
    QTest::addRow("no CA file: not trusted, 5")
        << Server::Loopback << CaFile::None << 5
        << u"did not answer: certificate for 127.0.0.1 is not trusted: "_s;
    QTest::addRow("a certificate for another name: 5")
        << Server::OtherHost << CaFile::Option << 5
        << u"did not answer: certificate for 127.0.0.1 names another host: "_s
               + QSslError(QSslError::HostNameMismatch).errorString();
    QTest::addRow("a certificate for another name, CA from CAPDESK_CA_FILE: 5")
        << Server::OtherHost << CaFile::Environment << 5
        << u"certificate for 127.0.0.1 names another host: "_s;
    QTest::addRow("--ca-file that cannot be read: 2")
        << Server::Loopback << CaFile::MissingOption << 2 << u"--ca-file: CA file "_s;
    QTest::addRow("CAPDESK_CA_FILE that cannot be read: 2")
        << Server::Loopback << CaFile::MissingEnvironment << 2 << u"CAPDESK_CA_FILE: CA file "_s;
}

void TestCapdeskctlServer::serverOverHttpsRefusals()
{
    QFETCH(TestCertificates::Server, certificate);
    QFETCH(CaFile, caFile);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    serve.setTls(m_certificates.certificateFile(certificate), m_certificates.keyFile(certificate));
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    QStringList arguments{u"get"_s, u"ZZ_ANY"_s, u"--server"_s, serve.baseUrl().toString()};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    environment.remove(u"CAPDESK_CA_FILE"_s);
    const QString missing = m_certificates.caFile() + u".missing"_s;
    if (caFile == CaFile::Option || caFile == CaFile::MissingOption)
        arguments << u"--ca-file"_s << (caFile == CaFile::Option ? m_certificates.caFile() : missing);
    if (caFile == CaFile::Environment || caFile == CaFile::MissingEnvironment)
        environment.insert(u"CAPDESK_CA_FILE"_s,
                           caFile == CaFile::Environment ? m_certificates.caFile() : missing);
    const ProcessRun::Result run =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, {}, environment);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!serve.standardError().contains("GET /api/directory")); // nothing reached the server
}

void TestCapdeskctlServer::localCommandsRefuseAServer_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const auto local = [](const QString &command) {
        return u"%1 works on a local directory file only (--db), not with --server"_s.arg(command);
    };
    QTest::addRow("init") << QStringList{u"init"_s} << local(u"init"_s);
    QTest::addRow("serve") << QStringList{u"serve"_s} << local(u"serve"_s);
    QTest::addRow("receipts")
        << QStringList{u"receipts"_s}
        << u"receipts lists a local directory's receipts only; against a server, check one "
           "with confirm INV_ID --server URL"_s;
    QTest::addRow("verify-receipt") << QStringList{u"verify-receipt"_s, u"r.json"_s}
                                    << local(u"verify-receipt"_s);
    QTest::addRow("public-key") << QStringList{u"public-key"_s} << local(u"public-key"_s);
    QTest::addRow("signing-key new") << QStringList{u"signing-key"_s, u"new"_s}
                                     << local(u"signing-key new"_s);
    QTest::addRow("log") << QStringList{u"log"_s, u"--verify"_s} << local(u"log"_s);
    QTest::addRow("token create") << QStringList{u"token"_s, u"create"_s, u"--audience"_s, u"A"_s}
                                  << local(u"token create"_s);
    QTest::addRow("token list") << QStringList{u"token"_s, u"list"_s} << local(u"token list"_s);
    QTest::addRow("token revoke") << QStringList{u"token"_s, u"revoke"_s, u"ID"_s}
                                  << local(u"token revoke"_s);
    const QString bridgeTakesNoToken =
        u"mcp --server serves with the owner key; a token is gated by the server, "
        "so hand the token to the client instead"_s;
    QTest::addRow("mcp --token") << QStringList{u"mcp"_s, u"--token"_s, u"T"_s} << bridgeTakesNoToken;
    // Said before the file is looked for, so a wrong path does not hide it.
    QTest::addRow("mcp --token-file")
        << QStringList{u"mcp"_s, u"--token-file"_s, u"/nonexistent/token"_s} << bridgeTakesNoToken;
}

// Refused before anything is sent: the URL names a port nothing listens on.
void TestCapdeskctlServer::localCommandsRefuseAServer()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments + QStringList{u"--server"_s, u"http://127.0.0.1:9"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

// `serve --listen 127.0.0.1:0` takes a free port, names it on stderr once it listens, and
// answers there; the receipts' public URLs carry that port, not 0.
void TestCapdeskctlServer::serveOnPortZeroNamesThePortItGot()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QProcess serve;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    serve.setProcessEnvironment(environment);
    serve.start(QStringLiteral(CAPDESKCTL_PATH),
                {u"serve"_s, u"--db"_s, db(), u"--listen"_s, u"127.0.0.1:0"_s});
    QVERIFY(serve.waitForStarted());
    static const QRegularExpression listening(
        u"capdeskctl: listening on (http://127\\.0\\.0\\.1:(\\d+))\n"_s);
    QByteArray err;
    QRegularExpressionMatch match;
    QTRY_VERIFY_WITH_TIMEOUT(
        (match = listening.match(QString::fromUtf8(err += serve.readAllStandardError()))).hasMatch()
            || serve.state() == QProcess::NotRunning,
        20000);
    QVERIFY2(match.hasMatch(), err.constData());
    QVERIFY(match.captured(2).toUInt() != 0);
    const QString server = match.captured(1);
    const ProcessRun::Result invoked =
        ctlWithKey({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--server"_s, server}, kServedKey);
    QCOMPARE(invoked.exitCode, 0);
    const QJsonObject proof = QJsonDocument::fromJson(invoked.out).object().value(u"proof"_s).toObject();
    QCOMPARE(proof.value(u"public_receipt"_s).toString(),
             server + u"/receipt/"_s + proof.value(u"invocation_id"_s).toString());
    serve.terminate();
    QVERIFY(serve.waitForFinished(10000));
}

QString TestCapdeskctlServer::keyFile(const QString &name, const QByteArray &content,
                                      QFileDevice::Permissions permissions)
{
    QDir(m_dir->path()).mkpath(QFileInfo(m_dir->filePath(name)).path());
    QFile file(m_dir->filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        return {};
    file.close();
    file.setPermissions(permissions);
    return file.fileName();
}

void TestCapdeskctlServer::serveReadsTheOwnerKeyFrom_data()
{
    QTest::addColumn<bool>("credential");
    QTest::addRow("--owner-key-file") << false;
    QTest::addRow("systemd's CREDENTIALS_DIRECTORY") << true;
}

// The ways a unit file keeps the key out of itself: a file only its owner reads, or the
// credential LoadCredential= puts in $CREDENTIALS_DIRECTORY. The file's line, without its end, is
// then the key the server takes, and no other.
void TestCapdeskctlServer::serveReadsTheOwnerKeyFrom()
{
    QFETCH(bool, credential);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QString file = keyFile(credential ? u"credentials/owner-key"_s : u"owner.key"_s, kServedKey + '\n',
                                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QVERIFY(!file.isEmpty());
    ServeProcess serve;
    QStringList arguments;
    if (credential)
        serve.setEnvironment(u"CREDENTIALS_DIRECTORY"_s, QFileInfo(file).path());
    else
        arguments << u"--owner-key-file"_s << file;
    QString error;
    QVERIFY2(serve.start(db(), {}, &error, arguments), qPrintable(error));
    // A write needs the owner key: with it, the missing row is not found (3); with any
    // other key the write is refused (4).
    const QStringList write{u"delete"_s, u"NO_SUCH_ROW"_s, u"--server"_s, serve.baseUrl().toString()};
    QCOMPARE(ctlWithKey(write, kServedKey).exitCode, 3);
    QCOMPARE(ctlWithKey(write, "tst-some-other-owner-key-0000").exitCode, 4);
    if (!credential)
        return;
    // A credential beside CAPDESK_TERMINAL_KEY is two keys: refused, not one silently winning.
    QProcessEnvironment both = QProcessEnvironment::systemEnvironment();
    both.insert(u"CREDENTIALS_DIRECTORY"_s, QFileInfo(file).path());
    both.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    const ProcessRun::Result twoKeys =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH),
                        {u"serve"_s, u"--db"_s, db(), u"--listen"_s, u"127.0.0.1:0"_s}, {}, both);
    QCOMPARE(twoKeys.exitCode, 2);
    QVERIFY2(twoKeys.err.contains("give the owner key one way"), twoKeys.err.constData());
    QVERIFY2(!twoKeys.err.contains("usage:"), twoKeys.err.constData());
}

void TestCapdeskctlServer::serveRefusesAnOwnerKey_data()
{
    using P = QFileDevice;
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QFileDevice::Permissions>("permissions");
    QTest::addColumn<bool>("alsoInEnvironment");
    QTest::addColumn<QString>("message");
    const QFileDevice::Permissions owner = P::ReadOwner | P::WriteOwner;
    QTest::addRow("readable by others")
        << kServedKey << (owner | P::ReadGroup | P::ReadOther) << false << u"is open to other users"_s;
    QTest::addRow("and CAPDESK_TERMINAL_KEY")
        << kServedKey << owner << true << u"give the owner key one way"_s;
    QTest::addRow("empty") << QByteArray("\n") << owner << false << u"is empty"_s;
    QTest::addRow("short") << QByteArray("short-key\n") << owner << false
                           << u"is shorter than 16 characters"_s;
    QTest::addRow("two lines") << kServedKey + "\nsecond-line-of-key\n"
                               << owner << false << u"one line of printable ASCII"_s;
    QTest::addRow("a space") << QByteArray("owner key with spaces in it") << owner << false
                             << u"one line of printable ASCII"_s;
    QTest::addRow("too long") << QByteArray(5000, 'k') << owner << false << u"longer than 4096 bytes"_s;
}

// A key file that is unsafe or unreadable stops serve before it binds (exit 2, naming why).
void TestCapdeskctlServer::serveRefusesAnOwnerKey()
{
    QFETCH(QByteArray, content);
    QFETCH(QFileDevice::Permissions, permissions);
    QFETCH(bool, alsoInEnvironment);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    const QString file = keyFile(u"owner.key"_s, content, permissions);
    QVERIFY(!file.isEmpty());
    const ProcessRun::Result served = ctlWithKey(
        {u"serve"_s, u"--db"_s, db(), u"--listen"_s, u"127.0.0.1:0"_s, u"--owner-key-file"_s, file},
        alsoInEnvironment ? kServedKey : QByteArray());
    QCOMPARE(served.exitCode, 2);
    QVERIFY2(QString::fromUtf8(served.err).contains(message), served.err.constData());
    QVERIFY(!served.err.contains("listening on"));
    const ProcessRun::Result missing =
        ctlWithKey({u"serve"_s, u"--db"_s, db(), u"--owner-key-file"_s, file + u".missing"_s}, QByteArray());
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("no owner key file at"), missing.err.constData());
}

// The Server header tells an attacker which holes to try, so only an owner's
// --announce-version adds it.
void TestCapdeskctlServer::serveNamesItsVersionOnlyWhenAsked()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    for (const bool announce : {false, true}) {
        ServeProcess serve;
        QString error;
        QVERIFY2(serve.start(db(), kServedKey, &error,
                             announce ? QStringList{u"--announce-version"_s} : QStringList{}),
                 qPrintable(error));
        QNetworkAccessManager network;
        QNetworkRequest request(serve.baseUrl().resolved(QUrl(u"/api/directory"_s)));
        request.setRawHeader("x-terminal-key", kServedKey);
        std::unique_ptr<QNetworkReply> reply(network.get(request));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(20000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(reply->rawHeader("Server"),
                 announce ? QByteArray("Capdesk/" CAPDESK_PROJECT_VERSION) : QByteArray());
    }
}

QTEST_GUILESS_MAIN(TestCapdeskctlServer)
#include "tst_capdeskctl_server.moc"
