#include "dispatch/directory/localdirectory.h"
#include "tests/views/viewtestsupport.h"

#include "dispatch/call/invocationhandle.h"
#include "dispatch/contract/curlcommand.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/memorysecrets.h"
#include "tests/support/processrun.h"
#include "views/common/directorysession.h"
#include "views/secrets/secretsdialog.h"
#include "views/shell/fileactions.h"
#include "views/shell/mainwindow.h"
#include "views/shell/secretactions.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDirIterator>
#include <QEventLoop>
#include <QHttpServer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMimeData>
#include <QMutex>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace {

// Every message of the process (workers included) while the test runs.
QMutex logMutex;
QStringList capturedLog;
QtMessageHandler previousHandler = nullptr;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QLatin1String category(context.category ? context.category : "");
    // qt.httpserver is the stand-in upstream's own log of what it received; in real use
    // that upstream is another party's server, not Capdesk.
    if (category != QLatin1String("qt.httpserver")) {
        const QMutexLocker lock(&logMutex);
        capturedLog.append(message + u" ("_s + category + u')');
    }
    // Debug output is only captured: forwarded, it would bury the test's own report.
    if (previousHandler && type != QtDebugMsg)
        previousHandler(type, context, message);
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A secret value and the forms it takes in a Basic header and a URL, its random core alone
// (a partial leak) and the UTF-16 a binary file might hold.
QList<QByteArray> needlesOf(const QString &secret, const QString &core)
{
    const QByteArray utf8 = secret.toUtf8();
    return {utf8, utf8.toBase64(), utf8.toPercentEncoding(), core.toUtf8(),
            QByteArray(reinterpret_cast<const char *>(core.utf16()), core.size() * 2)};
}

} // namespace

// SPEC §3 Auth, the security proof: a distinctive secret, set in the environment and in
// the keychain, is used for real calls against an upstream that echoes every header and
// the query back (the worst case), for shape calls and through capdeskctl; afterwards
// it must appear, in any of its encodings, in none of the database, the settings, the
// log, the responses, the shapes, the CLI's output, "copy as curl" or the clipboard.
// Without a Secret Service the keychain name is served from the environment instead and
// the keychain part is reported as skipped. Then the same proof for a value set in Tools →
// Secrets… where no keychain answers, which Capdesk keeps in memory only.
class TestSecretLeak : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void secretIsUsedButNeverLeaks();
    void memorySecretIsUsedButNeverLeaks();
    void cleanupTestCase();

private:
    InvocationOutcome invoke(Dispatcher &dispatcher, const QString &key, const QString &body, bool shape);
    QByteArray ctl(const QStringList &arguments, const QProcessEnvironment &environment, QByteArray *err);
    void expectClean(const QByteArray &haystack, const QString &where) const;
    static void expectClean(const QByteArray &haystack, const QString &where,
                            const QList<QByteArray> &needles);
    // Everything every file under `folder` holds, for expectClean; how many files there were.
    static int expectCleanFiles(const QString &folder, const QList<QByteArray> &needles);
    // Drives the Secrets dialog Tools → Secrets… opened: sets `name` to `value` through the
    // masked field and closes it. What went wrong, or empty.
    static QString setInOpenSecretsDialog(const QString &name, const QString &value, QByteArray *texts);

    QString m_secret;
    QList<QByteArray> m_needles;
    KeychainStore m_keychain;
    bool m_keychainAvailable = false;
    QString m_why;
    const QString m_bearerName = u"CAPDESK_LEAK_BEARER"_s; // environment
    const QString m_basicName = u"CAPDESK_LEAK_BASIC"_s; // keychain
    const QString m_queryName = u"CAPDESK_LEAK_QUERY"_s; // environment
};

void TestSecretLeak::initTestCase()
{
    QCoreApplication::setOrganizationName(u"Capdesk"_s);
    QCoreApplication::setApplicationName(u"capdesk"_s);
    const QString hex = QString::number(QRandomGenerator::global()->generate64(), 16);
    m_secret = u"xai-LEAKCANARY-"_s + hex;
    const QByteArray utf8 = m_secret.toUtf8();
    m_needles = needlesOf(m_secret, hex);

    qputenv(m_bearerName.toLocal8Bit().constData(), utf8);
    qputenv(m_queryName.toLocal8Bit().constData(), utf8);
    m_keychainAvailable = m_keychain.available(&m_why);
    if (m_keychainAvailable) {
        QVERIFY2(m_keychain.set(m_basicName, m_secret, &m_why), qPrintable(m_why));
        qunsetenv(m_basicName.toLocal8Bit().constData());
    } else {
        qWarning("keychain part skipped, %s served from the environment: %s", qPrintable(m_basicName),
                 qPrintable(m_why));
        qputenv(m_basicName.toLocal8Bit().constData(), utf8);
    }

    previousHandler = qInstallMessageHandler(captureMessage);
    QLoggingCategory::setFilterRules(u"*.debug=true"_s);
}

void TestSecretLeak::cleanupTestCase()
{
    qInstallMessageHandler(previousHandler);
    QLoggingCategory::setFilterRules(QString());
    if (m_keychainAvailable)
        m_keychain.remove(m_basicName);
}

InvocationOutcome TestSecretLeak::invoke(Dispatcher &dispatcher, const QString &key, const QString &body,
                                         bool shape)
{
    std::unique_ptr<InvocationHandle> handle(dispatcher.invoke({key, body, shape, std::nullopt}));
    if (!handle->isFinished()) {
        QEventLoop loop;
        connect(handle.get(), &InvocationHandle::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(30000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return handle->outcome();
}

QByteArray TestSecretLeak::ctl(const QStringList &arguments, const QProcessEnvironment &environment,
                               QByteArray *err)
{
    const ProcessRun::Result result =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, {}, environment);
    *err = result.err;
    return result.out;
}

void TestSecretLeak::expectClean(const QByteArray &haystack, const QString &where) const
{
    expectClean(haystack, where, m_needles);
}

void TestSecretLeak::expectClean(const QByteArray &haystack, const QString &where,
                                 const QList<QByteArray> &needles)
{
    for (const QByteArray &needle : needles)
        QVERIFY2(!haystack.contains(needle), qPrintable(u"the secret (as \"%1\") leaked into %2"_s.arg(
                                                 QString::fromLatin1(needle.toHex()), where)));
}

int TestSecretLeak::expectCleanFiles(const QString &folder, const QList<QByteArray> &needles)
{
    QDirIterator files(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    int scanned = 0;
    while (files.hasNext()) {
        const QString path = files.next();
        expectClean(fileBytes(path), path, needles);
        ++scanned;
    }
    return scanned;
}

void TestSecretLeak::secretIsUsedButNeverLeaks()
{
    // The upstream answers every request with what it received.
    QHttpServer upstream;
    QStringList seenAuthorization;
    QStringList seenKeys;
    auto echo = [&](const QHttpServerRequest &request) {
        QJsonObject headers;
        for (const auto &[name, value] : request.headers()) {
            headers.insert(QString::fromUtf8(name), QString::fromUtf8(value));
            if (name.compare("authorization", Qt::CaseInsensitive) == 0)
                seenAuthorization << QString::fromUtf8(value);
        }
        seenKeys << QUrlQuery(request.url()).queryItemValue(u"key"_s, QUrl::FullyDecoded);
        return QJsonObject{{u"headers"_s, headers},
                           {u"query"_s, request.url().query(QUrl::FullyEncoded)},
                           {u"body"_s, QString::fromUtf8(request.body())}};
    };
    upstream.route(u"/echo"_s,
                   [&](const QHttpServerRequest &request) { return QHttpServerResponse(echo(request)); });
    upstream.route(u"/v1/chat/completions"_s, [&](const QHttpServerRequest &request) {
        const QString text = QString::fromUtf8(QJsonDocument(echo(request)).toJson(QJsonDocument::Compact));
        return QHttpServerResponse(QJsonObject{
            {u"choices"_s, QJsonArray{QJsonObject{{u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s},
                                                                             {u"content"_s, text}}}}}}});
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);
    const QString base = u"http://127.0.0.1:%1"_s.arg(port);
    qputenv("CAPDESK_AGENT_BASE_URL", (base + u"/v1"_s).toUtf8());

    QTemporaryDir dir;
    const QString dbPath = dir.filePath(u"leak.db"_s);
    auto withAuth = [](Row row, const QString &auth) {
        row.auth = auth;
        return row;
    };
    const QList<Row> rows{
        withAuth(makeRow(u"LEAK_BEARER"_s, u"http"_s, u"GET %1/echo?q=$1"_s.arg(base), u"leak"_s),
                 u"bearer:"_s + m_bearerName),
        withAuth(makeRow(u"LEAK_BASIC"_s, u"http"_s, u"POST %1/echo"_s.arg(base), u"leak"_s,
                         u"# WHAT: basic probe\n{\"q\":\"$1\"}"_s),
                 u"basic:"_s + m_basicName),
        withAuth(makeRow(u"LEAK_QUERY"_s, u"http"_s, u"GET %1/echo?q=$1"_s.arg(base), u"leak"_s),
                 u"query:"_s + m_queryName),
        withAuth(makeRow(u"LEAK_AGENT"_s, u"agent"_s, u"grok-4"_s, u"leak"_s, u"You are a probe."_s),
                 u"bearer:"_s + m_bearerName),
    };
    std::shared_ptr<SqlDirectoryStore> store = openStoreWithRows(dbPath, rows);
    QVERIFY(store);

    // Real and shape calls through the dispatcher the GUI uses.
    QByteArray responses;
    QByteArray shapes;
    QByteArray curls;
    {
        StandardDispatcher dispatcher(
            store, std::make_shared<DirectoryLedger>(store, DirectoryLedger::KeyPlacement::FileOnly));
        for (const Row &row : rows) {
            const InvocationOutcome real = invoke(dispatcher, row.key, u"probe"_s, false);
            QVERIFY2(real.ran && !real.result.isFailure(),
                     qPrintable(row.key + u": "_s + real.result.output));
            responses += QJsonDocument(real.toResponse()).toJson() + '\n';
            const InvocationOutcome shape = invoke(dispatcher, row.key, u"probe"_s, true);
            QVERIFY2(shape.ran, qPrintable(row.key + u": "_s + shape.refusal));
            QVERIFY2(shape.result.notes.filter(u"not set"_s).isEmpty(),
                     qPrintable(shape.result.notes.join(u' ')));
            shapes += QJsonDocument(shape.toResponse()).toJson() + '\n';
            const QString curl = CurlCommand::fromShape(shape.result.shapeRequest, row.auth);
            QVERIFY2(!curl.isEmpty(), qPrintable(row.key));
            curls += curl.toUtf8() + '\n';
            // What "Copy as curl" does with it.
            QGuiApplication::clipboard()->setText(curl);
        }
    }
    // The upstream really got the credential each time: it was used, not merely absent.
    const QString basic = u"Basic "_s + QString::fromLatin1(m_secret.toUtf8().toBase64());
    QCOMPARE(seenAuthorization.count(u"Bearer "_s + m_secret), 2); // LEAK_BEARER and LEAK_AGENT
    QCOMPARE(seenAuthorization.count(basic), 1);
    QCOMPARE(seenKeys.count(m_secret), 1);

    // capdeskctl invoke with the secret in its environment (the keychain name through the
    // same D-Bus session).
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QByteArray cliOut;
    QByteArray cliErr;
    for (const Row &row : rows) {
        for (const bool shape : {false, true}) {
            QStringList arguments{u"invoke"_s, row.key, u"probe"_s, u"--db"_s, dbPath};
            if (shape)
                arguments << u"--shape"_s;
            QByteArray err;
            const QByteArray out = ctl(arguments, environment, &err);
            QVERIFY2(!out.isEmpty(), qPrintable(row.key + u": "_s + QString::fromUtf8(err)));
            cliOut += out;
            cliErr += err;
        }
    }
    QCOMPARE(seenAuthorization.count(u"Bearer "_s + m_secret), 4);
    QCOMPARE(seenAuthorization.count(basic), 2);
    QCOMPARE(seenKeys.count(m_secret), 2);

    // The window on the same directory, with the Secrets dialog open, writes its settings
    // the way it does on quit.
    QByteArray dialogTexts;
    {
        DirectorySession session;
        QVERIFY(!session.open(LocalDirectory::over(store)).isError());
        MainWindow window(session, std::make_unique<FakePrompter>());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        FakePrompter prompter;
        MemorySecrets memory;
        SecretsDialog dialog(store, m_keychain, memory, prompter, &window);
        dialog.show();
        for (const QWidget *widget : dialog.findChildren<QWidget *>()) {
            dialogTexts += widget->toolTip().toUtf8();
            if (const auto *label = qobject_cast<const QLabel *>(widget))
                dialogTexts += label->text().toUtf8();
            if (const auto *edit = qobject_cast<const QLineEdit *>(widget))
                dialogTexts += edit->text().toUtf8();
        }
        QVERIFY(window.close());
    }
    QSettings().sync();

    // Now look everywhere.
    expectClean(responses, u"the response JSON"_s);
    expectClean(shapes, u"the shape output"_s);
    expectClean(curls, u"copy as curl"_s);
    expectClean(cliOut, u"capdeskctl's stdout"_s);
    expectClean(cliErr, u"capdeskctl's stderr"_s);
    expectClean(dialogTexts, u"the Secrets dialog"_s);
    const QClipboard *clipboard = QGuiApplication::clipboard();
    expectClean(clipboard->text().toUtf8(), u"the clipboard"_s);
    if (const QMimeData *mime = clipboard->mimeData())
        for (const QString &format : mime->formats())
            expectClean(mime->data(format), u"the clipboard (%1)"_s.arg(format));
    store.reset();
    for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s})
        expectClean(fileBytes(dbPath + suffix), u"the database file leak.db"_s + suffix);
    const QString settingsFile = QSettings().fileName();
    QVERIFY2(QFile::exists(settingsFile), qPrintable(settingsFile));
    QDirIterator configFiles(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
                             QDir::Files, QDirIterator::Subdirectories);
    int scanned = 0;
    while (configFiles.hasNext()) {
        const QString path = configFiles.next();
        expectClean(fileBytes(path), path);
        ++scanned;
    }
    QVERIFY(scanned > 0);
    QStringList log;
    {
        const QMutexLocker lock(&logMutex);
        log = capturedLog;
    }
    expectClean(log.join(u'\n').toUtf8(), u"the log"_s);
    // The proof only holds if the responses really carried what the upstream echoed.
    QVERIFY(responses.contains("[redacted]"));
}

QString TestSecretLeak::setInOpenSecretsDialog(const QString &name, const QString &value, QByteArray *texts)
{
    auto *dialog = qobject_cast<SecretsDialog *>(QApplication::activeModalWidget());
    if (!dialog)
        return u"Tools → Secrets… showed no dialog"_s;
    // Whatever happens, exec() returns.
    const auto close = qScopeGuard([dialog] { dialog->reject(); });
    dialog->selectName(name);
    auto *set = dialog->findChild<QPushButton *>(u"setValueButton"_s);
    if (!QTest::qWaitFor([set] { return set->isEnabled(); }, 20000))
        return u"Set Value… stayed disabled without a keychain"_s;
    QTest::mouseClick(set, Qt::LeftButton);
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"secretValue"_s), value);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"storeValueButton"_s), Qt::LeftButton);
    for (const QWidget *widget : dialog->findChildren<QWidget *>()) {
        *texts += widget->toolTip().toUtf8();
        if (const auto *label = qobject_cast<const QLabel *>(widget))
            *texts += label->text().toUtf8();
        if (const auto *edit = qobject_cast<const QLineEdit *>(widget))
            *texts += edit->text().toUtf8();
    }
    return {};
}

void TestSecretLeak::memorySecretIsUsedButNeverLeaks()
{
    if (m_keychainAvailable) {
        // This session has a Secret Service, so the case runs in a child of this test
        // whose session bus does not exist: the keychain is then really unreachable.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path=/nonexistent/capdesk-no-bus"_s);
        const ProcessRun::Result child =
            ProcessRun::run(QCoreApplication::applicationFilePath(),
                            {QString::fromLatin1(QTest::currentTestFunction())}, {}, environment);
        QVERIFY2(child.finished && child.exitCode == 0, child.out.constData());
        QVERIFY2(child.out.contains("PASS   : TestSecretLeak::memorySecretIsUsedButNeverLeaks()"),
                 child.out.constData());
        return;
    }
    const QString hex = QString::number(QRandomGenerator::global()->generate64(), 16);
    const QString secret = u"xai-MEMORYCANARY-"_s + hex;
    const QList<QByteArray> needles = needlesOf(secret, hex);
    const QString name = u"CAPDESK_LEAK_MEMORY"_s;
    qunsetenv(name.toLocal8Bit().constData());

    QHttpServer upstream;
    QStringList seenAuthorization;
    QStringList seenKeys;
    upstream.route(u"/echo"_s, [&](const QHttpServerRequest &request) {
        QJsonObject headers;
        for (const auto &[header, value] : request.headers()) {
            headers.insert(QString::fromUtf8(header), QString::fromUtf8(value));
            if (header.compare("authorization", Qt::CaseInsensitive) == 0)
                seenAuthorization << QString::fromUtf8(value);
        }
        seenKeys << QUrlQuery(request.url()).queryItemValue(u"key"_s, QUrl::FullyDecoded);
        return QHttpServerResponse(
            QJsonObject{{u"headers"_s, headers}, {u"query"_s, request.url().query(QUrl::FullyEncoded)}});
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);
    const QString target = u"GET http://127.0.0.1:%1/echo?q=$1"_s.arg(port);

    QTemporaryDir dir;
    const QString dbPath = dir.filePath(u"memory.db"_s);
    auto withAuth = [](Row row, const QString &auth) {
        row.auth = auth;
        return row;
    };
    const QList<Row> rows{
        withAuth(makeRow(u"MEM_BEARER"_s, u"http"_s, target, u"leak"_s), u"bearer:"_s + name),
        withAuth(makeRow(u"MEM_QUERY"_s, u"http"_s, target, u"leak"_s), u"query:"_s + name),
    };
    QVERIFY(openStoreWithRows(dbPath, rows));

    QByteArray responses;
    QByteArray shapes;
    QByteArray curls;
    QByteArray texts;
    {
        // The window as an owner uses it: File → Open, then Tools → Secrets….
        DirectorySession session;
        MainWindow window(session, std::make_unique<FakePrompter>());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.fileActions()->openPath(dbPath));
        auto *status = window.findChild<QLabel *>(u"keychainStatus"_s);
        QVERIFY(status);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(u"kept in memory until Capdesk closes"_s), 20000);
        QVERIFY2(status->toolTip().contains(u"\n\nDetails: "_s), qPrintable(status->toolTip()));

        QString failure = u"the dialog was never driven"_s;
        QTimer::singleShot(0, &window, [&] { failure = setInOpenSecretsDialog(name, secret, &texts); });
        window.secretActions()->secretsAction()->trigger();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(session.memorySecrets()->lookup(name).value, secret);

        // Real and shape calls through the session, as the Shape and invoke dock makes them.
        for (const Row &row : rows) {
            const InvocationOutcome real = invoke(session, row.key, u"probe"_s, false);
            QVERIFY2(real.ran && !real.result.isFailure(),
                     qPrintable(row.key + u": "_s + real.result.output));
            responses += QJsonDocument(real.toResponse()).toJson() + '\n';
            const InvocationOutcome shape = invoke(session, row.key, u"probe"_s, true);
            QVERIFY2(shape.ran, qPrintable(row.key + u": "_s + shape.refusal));
            QVERIFY2(shape.result.notes.filter(u"not set"_s).isEmpty(),
                     qPrintable(shape.result.notes.join(u' ')));
            const QByteArray shaped = QJsonDocument(shape.toResponse()).toJson();
            QVERIFY2(shaped.contains("[redacted]"), shaped.constData());
            shapes += shaped + '\n';
            const QString curl = CurlCommand::fromShape(shape.result.shapeRequest, row.auth);
            QVERIFY2(curl.contains(u"$"_s + name), qPrintable(curl));
            curls += curl.toUtf8() + '\n';
        }
        texts += status->text().toUtf8() + status->toolTip().toUtf8();
        QVERIFY(window.close());
    }
    QSettings().sync();
    // The upstream got the value each time: it was used, not merely absent.
    QCOMPARE(seenAuthorization, QStringList{u"Bearer "_s + secret});
    QCOMPARE(seenKeys.count(secret), 1);

    expectClean(responses, u"the response JSON"_s, needles);
    expectClean(shapes, u"the shape output"_s, needles);
    expectClean(curls, u"copy as curl"_s, needles);
    expectClean(texts, u"the Secrets dialog and the status bar"_s, needles);
    // On disk: the directory, its journal and signing key, the settings, anything else.
    QVERIFY(expectCleanFiles(dir.path(), needles) >= 2);
    QVERIFY2(QFile::exists(QSettings().fileName()), qPrintable(QSettings().fileName()));
    QVERIFY(expectCleanFiles(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation), needles)
            > 0);
    expectCleanFiles(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation), needles);
    QStringList log;
    {
        const QMutexLocker lock(&logMutex);
        log = capturedLog;
    }
    expectClean(log.join(u'\n').toUtf8(), u"the log"_s, needles);
    QVERIFY(responses.contains("[redacted]"));
}

QTEST_MAIN(TestSecretLeak)
#include "tst_secretleak.moc"
