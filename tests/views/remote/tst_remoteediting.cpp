#include "dispatch/call/flowrunrecord.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/directory/localdirectory.h"
#include "dispatch/flows/flowparser.h"
#include "dispatch/flows/run/flowdebugsession.h"
#include "models/callhistorymodel.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "remote/remoteconfirmation.h"
#include "remote/remotedirectorystore.h"
#include "remote/serverconnection.h"
#include "tests/support/minimalserver.h"
#include "tests/support/serveprocess.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/conflictresolver.h"
#include "views/editor/mergedialog.h"
#include "views/editor/roweditorpanel.h"
#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowpane.h"
#include "views/receipts/receiptspane.h"
#include "views/remote/connectdialog.h"
#include "views/remote/connectionmonitor.h"
#include "views/remote/connectionrecovery.h"
#include "views/remote/offlinebanner.h"
#include "views/remote/remotecallsview.h"
#include "views/shell/connectactions.h"
#include "views/shell/editactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>

// The desktop app against a server (issue 7): the real MainWindow connected to a real
// `capdeskctl serve` (or to MinimalServer, which has only SPEC §10's table), editing,
// saving, merging a conflict, surviving a killed server and a refused key.
class TestRemoteEditing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void connectShowsTheServersRowsAndTheConnection();
    void runnerAndSensitiveAreReadOnlyOnAServer();
    void saveSendsOnlyTheChangedFields();
    void conflictOpensTheMergeDialogAndWritesTheChoice();
    void killedServerShowsTheBannerAndKeepsTheEdit();
    void savePendingOfflineIsRetriedWhenTheServerAnswers();
    void editTypedWhileOfflineIsKeptAndSaved();
    void refusedKeyShowsTheBannerAndChangeKeyRetries();
    void connectingWithARefusedKeyShowsTheRowsAndTheBanner();
    void callsRunOnTheServerAndAreConfirmed();
    void flowDebuggerStepsRunOnTheServer();
    void aPlainServerCannotLinkADebuggedFlow();
    void stepRowsNotYetReadAreAskedAbout();
    void disconnectGoesBackToTheLocalFile();

private:
    void openWindow();
    bool connectTo(const QUrl &url, const QString &name = QStringLiteral("serve"),
                   const QByteArray &key = QByteArray());
    // Selects `key` and waits until its row has arrived from the server.
    std::optional<Row> selectAndLoad(const QString &key);
    // Save, then its end: true when it was saved, false when it failed (a server's save
    // ends after its round trips).
    bool saveAndWait();
    DirectoryDocument *document() const { return m_session->document(); }
    // Types into the editor's line for `column` of `key`, as a user would.
    void typeInto(const QString &key, const QString &column, const QString &text);
    QLineEdit *line(const QString &column) const;
    // The row as the server holds it, read through a connection of its own.
    Row serverRow(const QString &key) const;
    bool restartServer();

    QTemporaryDir m_dir;
    QString m_servedPath;
    QString m_localPath;
    ServeProcess m_server;
    const QByteArray m_key = QByteArrayLiteral("remote-editing-owner-key-42");
    FakePrompter *m_prompter = nullptr;
    std::unique_ptr<DirectorySession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestRemoteEditing::initTestCase()
{
    m_servedPath = m_dir.filePath(QStringLiteral("served.db"));
    m_localPath = m_dir.filePath(QStringLiteral("local.db"));
    QVERIFY(openStoreWithRows(m_servedPath, sampleRows()));
    QVERIFY(openStoreWithRows(m_localPath, sampleRows()));
    QString error;
    QVERIFY2(m_server.start(m_servedPath, m_key, &error), qPrintable(error));
}

void TestRemoteEditing::init()
{
    QSettings().clear();
    if (!m_server.isRunning())
        QVERIFY(restartServer());
    openWindow();
}

void TestRemoteEditing::cleanup()
{
    if (m_window) // a test that stops its own server closes the window first
        m_prompter->unsavedAnswer = Prompter::UnsavedChoice::Discard;
    m_window.reset();
    m_session.reset();
}

void TestRemoteEditing::cleanupTestCase()
{
    m_server.stop();
}

void TestRemoteEditing::openWindow()
{
    m_session = std::make_unique<DirectorySession>();
    auto store = SqlDirectoryStore::open(m_localPath);
    QVERIFY(store.ok());
    QVERIFY(!m_session->open(LocalDirectory::over(store.value())).isError());
    auto fake = std::make_unique<FakePrompter>();
    m_prompter = fake.get();
    m_window = std::make_unique<MainWindow>(*m_session, std::move(fake));
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

bool TestRemoteEditing::connectTo(const QUrl &url, const QString &name, const QByteArray &key)
{
    QSignalSpy finished(m_window->connectActions(), &ConnectActions::connectFinished);
    if (!m_window->connectActions()->connectTo({name, url}, QString::fromLatin1(key.isEmpty() ? m_key : key)))
        return false;
    // Longer than a request may take (ConnectActions::requestTimeoutMs): a slow check
    // reports its own failure instead of the test giving up first.
    // The answer may already be in (wait() would then wait for a second one).
    if ((finished.isEmpty() && !finished.wait(ConnectActions::requestTimeoutMs + 5000))
        || !finished.first().first().toBool()) {
        qWarning("connecting failed: %s", qPrintable(m_prompter->errors.join(QStringLiteral("; "))));
        return false;
    }
    // The rows arrive off the GUI thread, the first page before the rest.
    QSignalSpy loaded(document()->tableModel(), &DirectoryTableModel::loadFinished);
    return !document()->tableModel()->isLoading() || loaded.wait(10000);
}

std::optional<Row> TestRemoteEditing::selectAndLoad(const QString &key)
{
    m_window->tableView()->selectKey(key);
    QSignalSpy changed(document(), &DirectoryDocument::rowChanged);
    for (int waits = 0; !document()->row(key) && waits < 100; ++waits)
        changed.wait(100);
    return document()->row(key);
}

bool TestRemoteEditing::saveAndWait()
{
    QSignalSpy saved(document(), &DirectoryDocument::saved);
    QSignalSpy failed(document(), &DirectoryDocument::saveFailed);
    if (!m_window->editActions()->save())
        return false;
    if (!QTest::qWaitFor([&] { return !saved.isEmpty() || !failed.isEmpty(); }, 15000))
        return false;
    return !saved.isEmpty();
}

bool TestRemoteEditing::restartServer()
{
    QString error;
    const bool ok = m_server.restart(&error);
    if (!ok)
        qWarning("%s", qPrintable(error));
    return ok;
}

QLineEdit *TestRemoteEditing::line(const QString &column) const
{
    return m_window->editorPanel()->findChild<QLineEdit *>(column);
}

void TestRemoteEditing::typeInto(const QString &key, const QString &column, const QString &text)
{
    QVERIFY(selectAndLoad(key));
    QCOMPARE(m_window->editorPanel()->key(), key);
    QLineEdit *edit = line(column);
    QVERIFY(edit);
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

Row TestRemoteEditing::serverRow(const QString &key) const
{
    RemoteDirectoryStore store(
        std::make_shared<ServerConnection>(ServerEndpoint{m_server.baseUrl(), QString::fromLatin1(m_key)}));
    StoreResult<Row> row = store.row(key);
    if (!row.ok())
        qWarning("cannot read %s: %s", qPrintable(key), qPrintable(row.error().message));
    return row.ok() ? row.value() : Row();
}

void TestRemoteEditing::connectShowsTheServersRowsAndTheConnection()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    QVERIFY(m_session->connection());
    QVERIFY(!m_session->ledger());
    // A server keeps its event log and tokens to itself: the panels hear "none", not a cast.
    QVERIFY(!m_session->history());
    QVERIFY(!m_session->tokens());
    QVERIFY(!m_window->findChild<QAction *>(QStringLiteral("tokensAction"))->isEnabled());
    QCOMPARE(m_session->readOnlyColumns().keys(),
             (QStringList{QStringLiteral("runner"), QStringLiteral("sensitive")}));
    QCOMPARE(document()->tableModel()->rowCount(), int(sampleRows().size()));
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("serve")));
    auto *status = m_window->findChild<QLabel *>(QStringLiteral("connectionStatus"));
    QVERIFY(status);
    const QString prefix = QStringLiteral("Server: serve — %1 · ").arg(m_server.baseUrl().toString());
    QTRY_VERIFY2(status->text().startsWith(prefix) && status->text().endsWith(QStringLiteral(" ms")),
                 qPrintable(status->text()));
    QVERIFY(status->isVisible());
    QCOMPARE(m_window->connectionMonitor()->state(), ConnectionMonitor::State::Online);
    QVERIFY(!m_window->offlineBanner()->isVisible());
    QVERIFY(m_window->connectActions()->disconnectAction()->isEnabled());
    // The editor shows a row fetched from the server.
    QVERIFY(selectAndLoad(QStringLiteral("WEATHER_NOW")));
    QCOMPARE(line(QStringLiteral("target"))->text(),
             QStringLiteral("GET https://api.example.com/weather/$1"));
}

void TestRemoteEditing::runnerAndSensitiveAreReadOnlyOnAServer()
{
    RowEditorPanel *editor = m_window->editorPanel();
    auto *note = editor->findChild<QLabel *>(QStringLiteral("readOnlyNote"));
    QVERIFY(note);
    QVERIFY(!editor->isColumnReadOnly(QStringLiteral("runner")));
    QVERIFY(connectTo(m_server.baseUrl()));
    QVERIFY(selectAndLoad(QStringLiteral("NOW")));
    QVERIFY(editor->isColumnReadOnly(QStringLiteral("runner")));
    QVERIFY(editor->isColumnReadOnly(QStringLiteral("sensitive")));
    QVERIFY(!editor->isColumnReadOnly(QStringLiteral("category")));
    QVERIFY(line(QStringLiteral("runner"))->isReadOnly());
    QVERIFY(line(QStringLiteral("runner"))->toolTip().contains(QStringLiteral("PATCH allow-list")));
    auto *sensitive = editor->findChild<QCheckBox *>(QStringLiteral("sensitive"));
    QVERIFY(!sensitive->isEnabled());
    QVERIFY(sensitive->toolTip().contains(QStringLiteral("SPEC §10")));
    QVERIFY(note->isVisible());
    QVERIFY(note->text().contains(QStringLiteral("runner or sensitive")));
    QVERIFY(!line(QStringLiteral("category"))->isReadOnly());

    // Back on a local file, both are editable again.
    QVERIFY(m_window->connectActions()->disconnectFromServer());
    QVERIFY(!m_session->connection());
    m_window->tableView()->selectKey(QStringLiteral("NOW"));
    QVERIFY(!line(QStringLiteral("runner"))->isReadOnly());
    QVERIFY(sensitive->isEnabled());
    QVERIFY(!note->isVisible());
}

void TestRemoteEditing::saveSendsOnlyTheChangedFields()
{
    // MinimalServer answers on a thread of its own: the app's requests block this one.
    MinimalServer server(m_key);
    QString error;
    QVERIFY2(server.listen(&error), qPrintable(error));
    auto closeWindowFirst = qScopeGuard([this] {
        m_prompter->unsavedAnswer = Prompter::UnsavedChoice::Discard;
        m_window.reset();
        m_session.reset();
    });
    const QUrl url = server.baseUrl();
    RemoteDirectoryStore seeder(
        std::make_shared<ServerConnection>(ServerEndpoint{url, QString::fromLatin1(m_key)}));
    for (Row row : sampleRows()) {
        row.content = QStringLiteral("# WHAT: %1\n").arg(row.key) + row.content;
        QVERIFY(seeder.create(row).ok());
    }

    QVERIFY(connectTo(url, QStringLiteral("minimal")));
    QCOMPARE(document()->tableModel()->rowCount(), int(sampleRows().size()));
    server.clearRequests();
    typeInto(QStringLiteral("ECHO_BACK"), QStringLiteral("category"), QStringLiteral("strings"));
    QVERIFY(document()->isModified());
    QVERIFY(saveAndWait());
    QVERIFY(!document()->isModified());

    const QList<MinimalServer::Request> patches = server.requests("PATCH");
    QCOMPARE(patches.size(), 1);
    QCOMPARE(patches.first().pathAndQuery, QStringLiteral("/api/directory/ECHO_BACK"));
    QCOMPARE(patches.first().json(), QJsonObject({{QStringLiteral("category"), QStringLiteral("strings")}}));
    QVERIFY(patches.first().hadOwnerKey);
    const QJsonObject stored = server.row(QStringLiteral("ECHO_BACK"));
    QCOMPARE(stored.value(QStringLiteral("category")).toString(), QStringLiteral("strings"));
    QCOMPARE(stored.value(QStringLiteral("target")).toString(), QStringLiteral("echo"));
}

void TestRemoteEditing::conflictOpensTheMergeDialogAndWritesTheChoice()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    const QString key = QStringLiteral("WEATHER_NOW");
    const Row before = serverRow(key);

    // Mine: category and allowed_categories.
    typeInto(key, QStringLiteral("category"), QStringLiteral("mine-cat"));
    typeInto(key, QStringLiteral("allowed_categories"), QStringLiteral("a,b"));
    // Theirs, behind the app's back: category and the content.
    RemoteDirectoryStore other(
        std::make_shared<ServerConnection>(ServerEndpoint{m_server.baseUrl(), QString::fromLatin1(m_key)}));
    const QString theirContent = before.content + QStringLiteral("added on the server\n");
    QVERIFY(other
                .patch(key, {{QStringLiteral("category"), QStringLiteral("their-cat")},
                             {QStringLiteral("content"), theirContent}})
                .ok());

    QVERIFY(!saveAndWait());
    MergeDialog *dialog = m_window->conflictResolver()->dialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(document()->isModified());
    QCOMPARE(line(QStringLiteral("category"))->text(), QStringLiteral("mine-cat"));
    QStringList offered;
    for (const RowMerge::Field &field : dialog->merge().fields())
        offered.append(field.column);
    QCOMPARE(offered, QStringList({QStringLiteral("content"), QStringLiteral("category"),
                                   QStringLiteral("allowed_categories")}));
    // Defaults: mine where I edited, theirs elsewhere.
    QVERIFY(dialog->choiceButton(QStringLiteral("category"), RowMerge::Side::Mine)->isChecked());
    QVERIFY(dialog->choiceButton(QStringLiteral("content"), RowMerge::Side::Theirs)->isChecked());
    QVERIFY(dialog->choiceButton(QStringLiteral("allowed_categories"), RowMerge::Side::Mine)->isChecked());
    // Pick theirs for category.
    QTest::mouseClick(dialog->choiceButton(QStringLiteral("category"), RowMerge::Side::Theirs),
                      Qt::LeftButton);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("mergeApply")), Qt::LeftButton);

    QTRY_VERIFY(!document()->isModified());
    const Row merged = serverRow(key);
    QCOMPARE(merged.category, QStringLiteral("their-cat"));
    QCOMPARE(merged.content, theirContent);
    QCOMPARE(merged.allowedCategories, QStringLiteral("a,b"));
    QCOMPARE(merged.target, before.target);
    QCOMPARE(line(QStringLiteral("allowed_categories"))->text(), QStringLiteral("a,b"));
    QCOMPARE(line(QStringLiteral("category"))->text(), QStringLiteral("their-cat"));
    QVERIFY(!m_window->conflictResolver()->dialog());
}

void TestRemoteEditing::killedServerShowsTheBannerAndKeepsTheEdit()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    OfflineBanner *banner = m_window->offlineBanner();
    typeInto(QStringLiteral("NOW"), QStringLiteral("category"), QStringLiteral("offline-edit"));
    m_server.kill();

    QVERIFY(!saveAndWait());
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->problem(), OfflineBanner::Problem::Unreachable);
    QVERIFY(!banner->changeKeyButton()->isVisible());
    QVERIFY(document()->isModified());
    QCOMPARE(document()->row(QStringLiteral("NOW"))->category, QStringLiteral("offline-edit"));
    QCOMPARE(line(QStringLiteral("category"))->text(), QStringLiteral("offline-edit"));
    QTRY_COMPARE(m_window->connectionMonitor()->state(), ConnectionMonitor::State::Offline);
    QVERIFY2(banner->text().contains(QStringLiteral("connection refused")), qPrintable(banner->text()));
    QVERIFY2(banner->text().contains(QStringLiteral("edits are kept")), qPrintable(banner->text()));
    auto *status = m_window->findChild<QLabel *>(QStringLiteral("connectionStatus"));
    QVERIFY2(status->text().endsWith(QStringLiteral("offline")), qPrintable(status->text()));

    QVERIFY(restartServer());
    QTest::mouseClick(banner->retryButton(), Qt::LeftButton);
    QTRY_VERIFY(!document()->isModified());
    QTRY_VERIFY(!banner->isVisible());
    QCOMPARE(serverRow(QStringLiteral("NOW")).category, QStringLiteral("offline-edit"));
    QCOMPARE(line(QStringLiteral("category"))->text(), QStringLiteral("offline-edit"));
}

void TestRemoteEditing::editTypedWhileOfflineIsKeptAndSaved()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    QVERIFY(selectAndLoad(QStringLiteral("TRIAGE")));
    QCOMPARE(m_window->editorPanel()->key(), QStringLiteral("TRIAGE"));
    m_server.kill();

    QLineEdit *edit = line(QStringLiteral("category"));
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, QStringLiteral("typed-offline"));
    QVERIFY(document()->isModified());
    QCOMPARE(document()->row(QStringLiteral("TRIAGE"))->category, QStringLiteral("typed-offline"));
    QVERIFY(!saveAndWait());
    QVERIFY(document()->isModified());

    QVERIFY(restartServer());
    QTest::mouseClick(m_window->offlineBanner()->retryButton(), Qt::LeftButton);
    QTRY_VERIFY(!document()->isModified());
    QCOMPARE(serverRow(QStringLiteral("TRIAGE")).category, QStringLiteral("typed-offline"));
}

void TestRemoteEditing::savePendingOfflineIsRetriedWhenTheServerAnswers()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    typeInto(QStringLiteral("TRIAGE"), QStringLiteral("category"), QStringLiteral("retried"));
    m_server.kill();
    QVERIFY(!saveAndWait());
    QVERIFY(m_window->connectionRecovery()->isSavePending());
    QVERIFY(restartServer());
    // The next ping finds the server back; the pending save goes by itself.
    m_window->connectionMonitor()->pingNow();
    QTRY_VERIFY_WITH_TIMEOUT(!document()->isModified(), 10000);
    QTRY_VERIFY(!m_window->offlineBanner()->isVisible());
    QCOMPARE(serverRow(QStringLiteral("TRIAGE")).category, QStringLiteral("retried"));
}

void TestRemoteEditing::connectingWithARefusedKeyShowsTheRowsAndTheBanner()
{
    QVERIFY(connectTo(m_server.baseUrl(), QStringLiteral("serve"),
                      QByteArrayLiteral("not-the-owner-key-at-all")));
    QCOMPARE(document()->tableModel()->rowCount(), int(sampleRows().size()));
    QVERIFY(m_prompter->errors.isEmpty());
    OfflineBanner *banner = m_window->offlineBanner();
    QTRY_VERIFY(banner->isVisible());
    QCOMPARE(banner->problem(), OfflineBanner::Problem::KeyRefused);
    QVERIFY(banner->changeKeyButton()->isVisible());
    // The keyless pings that follow do not hide it: only an accepted key does.
    ConnectionMonitor *monitor = m_window->connectionMonitor();
    monitor->pingNow();
    // The ping's answer is posted to this thread (requestFinished) before its worker ends;
    // once it has ended, delivering what is posted hands that answer to the monitor.
    QTRY_VERIFY(!monitor->isPinging());
    QCoreApplication::processEvents();
    QCOMPARE(monitor->state(), ConnectionMonitor::State::KeyRefused);
}

void TestRemoteEditing::refusedKeyShowsTheBannerAndChangeKeyRetries()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    OfflineBanner *banner = m_window->offlineBanner();
    // The server's key was rotated while the window was open.
    m_session->connection()->setOwnerKey(QStringLiteral("an-old-key"));
    typeInto(QStringLiteral("MORNING"), QStringLiteral("category"), QStringLiteral("after-rotation"));
    QVERIFY(!saveAndWait());
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->problem(), OfflineBanner::Problem::KeyRefused);
    QVERIFY(banner->changeKeyButton()->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("refused the owner key")), qPrintable(banner->text()));
    QTRY_COMPARE(m_window->connectionMonitor()->state(), ConnectionMonitor::State::KeyRefused);
    QVERIFY(document()->isModified());

    // Change Key…: the dialog opens on the profile with the key field; the new key is
    // used at once and the pending save retried.
    QString shownProfile;
    QTimer answer; // polls: the dialog exists only once the click has run
    connect(&answer, &QTimer::timeout, this, [&] {
        auto *dialog = qobject_cast<ConnectDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        answer.stop();
        shownProfile = dialog->nameEdit()->text();
        dialog->keyEdit()->setText(QString::fromLatin1(m_key));
        dialog->accept();
        // The typed key goes into the keychain first, then the dialog closes; should it
        // stay open, fail the test rather than hang in exec().
        QTimer::singleShot(15000, dialog, &QDialog::reject);
    });
    answer.start(20);
    QTest::mouseClick(banner->changeKeyButton(), Qt::LeftButton);
    QCOMPARE(shownProfile, QStringLiteral("serve"));
    QTRY_VERIFY(!document()->isModified());
    QTRY_VERIFY(!banner->isVisible());
    QCOMPARE(m_window->connectionMonitor()->state(), ConnectionMonitor::State::Online);
    QCOMPARE(serverRow(QStringLiteral("MORNING")).category, QStringLiteral("after-rotation"));
}

void TestRemoteEditing::callsRunOnTheServerAndAreConfirmed()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    RemoteCallsView *calls = m_window->receiptsPane()->remoteCalls();
    QVERIFY(calls);
    QVERIFY(!m_window->receiptsPane()->viewer());

    auto run = [this](const QString &key, const QString &body, bool shape) {
        std::unique_ptr<InvocationHandle> handle(m_session->invoke({key, body, shape, selectAndLoad(key)}));
        QSignalSpy finished(handle.get(), &InvocationHandle::finished);
        if (!handle->isFinished())
            finished.wait(10000);
        return handle->outcome();
    };
    // Shape: the server builds the request (SPEC §5), nothing runs.
    const InvocationOutcome shape = run(QStringLiteral("WEATHER_NOW"), QStringLiteral("Paris"), true);
    QVERIFY2(shape.refusal.isEmpty(), qPrintable(shape.refusal));
    QVERIFY(shape.shape);
    QVERIFY(QJsonDocument(shape.result.shapeRequest).toJson().contains("weather/Paris"));
    // A real call runs on the server and is confirmed there.
    const InvocationOutcome echo = run(QStringLiteral("ECHO_BACK"), QStringLiteral("hi"), false);
    QVERIFY2(echo.refusal.isEmpty(), qPrintable(echo.refusal));
    QVERIFY(echo.invocationId.startsWith(QStringLiteral("inv_")));
    QCOMPARE(calls->model()->rowCount(), 1); // the shape preview is no call
    QTRY_VERIFY(calls->model()->entryAt(0)->confirmation.startsWith(QStringLiteral("confirmed")));
    QCOMPARE(calls->model()->entryAt(0)->key, QStringLiteral("ECHO_BACK"));
    // An unsaved edit cannot be sent to a server: the call says so instead of running
    // the saved row under the edited one's name.
    typeInto(QStringLiteral("ECHO_BACK"), QStringLiteral("target"), QStringLiteral("now"));
    const InvocationOutcome edited = run(QStringLiteral("ECHO_BACK"), QStringLiteral("hi"), false);
    QVERIFY(!edited.refusal.isEmpty());
    QVERIFY(!edited.ran);
}

void TestRemoteEditing::flowDebuggerStepsRunOnTheServer()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    const std::optional<Row> flow = selectAndLoad(QStringLiteral("MORNING"));
    QVERIFY(flow);
    const FlowParseResult parsed = FlowParser::parse(flow->content);
    QVERIFY(!parsed.error);
    FlowDebugSession debug(*m_session);
    // The steps' rows are read from the server first: the lookup answers from them.
    for (const QString &key : parsed.plan.keys())
        QVERIFY(selectAndLoad(key));
    debug.setRowLookup([this](const QString &key) { return document()->row(key); });
    debug.setFlow(QStringLiteral("MORNING"), parsed.plan, QString());
    QList<InvocationOutcome> recorded;
    QStringList notRecorded;
    connect(&debug, &FlowDebugSession::recorded, this,
            [&recorded](const InvocationOutcome &outcome) { recorded.append(outcome); });
    connect(&debug, &FlowDebugSession::notRecorded, this,
            [&notRecorded](const QString &why) { notRecorded.append(why); });
    debug.resume();
    QTRY_VERIFY(debug.run() && debug.run()->state() == FlowExecutor::State::Finished);
    const QList<FlowStepState> &steps = debug.run()->steps();
    QCOMPARE(steps.size(), 2);
    // Our server links the steps under the run and writes the flow's receipt, signed there.
    QTRY_COMPARE(recorded.size() + notRecorded.size(), 1);
    QVERIFY2(notRecorded.isEmpty(), qPrintable(notRecorded.join(u'\n')));
    const std::optional<Receipt> flowReceipt = recorded.first().receipt;
    QVERIFY(flowReceipt);
    QCOMPARE(flowReceipt->key, QStringLiteral("MORNING"));
    QCOMPARE(flowReceipt->actor, QStringLiteral("owner:terminal-key"));
    QVERIFY(flowReceipt->parent.isEmpty());
    ServerConnection connection(ServerEndpoint{m_server.baseUrl(), {}});
    const StoreResult<RemoteConfirmation> flowConfirmed =
        RemoteConfirmation::fetch(connection, flowReceipt->invocationId);
    QVERIFY2(flowConfirmed.ok(), qPrintable(flowConfirmed.error().message));
    QVERIFY(flowConfirmed.value().status != QStringLiteral("UNKNOWN_INVOCATION"));
    // A receipted run is closed: it is not recorded twice, and no step joins it later.
    ServerConnection owner(ServerEndpoint{m_server.baseUrl(), QString::fromLatin1(m_key)});
    FlowRunRecord again;
    again.key = QStringLiteral("MORNING");
    again.invocationId = flowReceipt->invocationId;
    again.trace = flowReceipt->trace;
    again.startedAt = flowReceipt->startedAt;
    QCOMPARE(
        owner.send("POST", QStringLiteral("/api/flow-runs"), QJsonDocument(again.toJson()).toJson()).status,
        409);
    const QJsonObject lateStep{{QStringLiteral("key"), QStringLiteral("NOW")},
                               {QStringLiteral("body"), QString()},
                               {QStringLiteral("parent"), flowReceipt->invocationId},
                               {QStringLiteral("trace"), flowReceipt->trace}};
    QCOMPARE(owner.send("POST", QStringLiteral("/api/dispatch"), QJsonDocument(lateStep).toJson()).status,
             409);
    for (const FlowStepState &step : steps) {
        QCOMPARE(step.phase, FlowStepState::Phase::Done);
        const QString id = step.calls.first().invocationId;
        QVERIFY(id.startsWith(QStringLiteral("inv_")));
        QCOMPARE(step.calls.first().receiptParent, flowReceipt->invocationId);
        // Each step is an invocation the server ran and holds the receipt of.
        const StoreResult<RemoteConfirmation> confirmed = RemoteConfirmation::fetch(connection, id);
        QVERIFY2(confirmed.ok(), qPrintable(confirmed.error().message));
        QVERIFY(confirmed.value().status != QStringLiteral("UNKNOWN_INVOCATION"));
    }
}

// SPEC §10 has no parent on dispatch: a plain server runs the steps, each with a receipt of
// its own, the debugger says the flow gets none, and nothing is sent to record one.
void TestRemoteEditing::aPlainServerCannotLinkADebuggedFlow()
{
    MinimalServer server(m_key);
    QString error;
    QVERIFY2(server.listen(&error), qPrintable(error));
    auto closeWindowFirst = qScopeGuard([this] {
        m_window.reset();
        m_session.reset();
    });
    RemoteDirectoryStore seeder(
        std::make_shared<ServerConnection>(ServerEndpoint{server.baseUrl(), QString::fromLatin1(m_key)}));
    for (Row row : sampleRows()) {
        row.content = QStringLiteral("# WHAT: %1\n").arg(row.key) + row.content;
        QVERIFY(seeder.create(row).ok());
    }
    QVERIFY(connectTo(server.baseUrl(), QStringLiteral("minimal")));
    QVERIFY(selectAndLoad(QStringLiteral("ECHO_BACK")));
    const FlowParseResult parsed = FlowParser::parse(QStringLiteral("ECHO_BACK: hi > ECHO_BACK"));
    QVERIFY(!parsed.error);
    FlowDebugSession debug(*m_session);
    debug.setRowLookup([this](const QString &key) { return document()->row(key); });
    debug.setFlow(QStringLiteral("ECHO_TWICE"), parsed.plan, QString());
    QStringList notRecorded;
    connect(&debug, &FlowDebugSession::notRecorded, this,
            [&notRecorded](const QString &why) { notRecorded.append(why); });
    debug.resume();
    QTRY_VERIFY(debug.run() && debug.run()->state() == FlowExecutor::State::Finished);
    QCOMPARE(debug.run()->output(), QStringLiteral("hi"));
    QTRY_COMPARE(notRecorded.size(), 1);
    QVERIFY2(notRecorded.first().contains(QStringLiteral("does not name the flow as its parent")),
             qPrintable(notRecorded.first()));
    const QList<MinimalServer::Request> steps = server.requests("POST", QStringLiteral("/api/dispatch"));
    QCOMPARE(steps.size(), 2);
    QVERIFY(
        steps.first().json().value(QStringLiteral("parent")).toString().startsWith(QStringLiteral("inv_")));
    QVERIFY(server.requests("POST", QStringLiteral("/api/flow-runs")).isEmpty());

    // A server reading the body strictly refuses the parent: each step goes again without
    // it and runs, unlinked, and the debugger says so as before.
    server.refuseUnknownDispatchMembers(true);
    server.clearRequests();
    notRecorded.clear();
    debug.resume();
    QTRY_VERIFY(debug.run() && debug.run()->state() == FlowExecutor::State::Finished);
    QCOMPARE(debug.run()->output(), QStringLiteral("hi"));
    QTRY_COMPARE(notRecorded.size(), 1);
    const QList<MinimalServer::Request> strict = server.requests("POST", QStringLiteral("/api/dispatch"));
    QCOMPARE(strict.size(), 4);
    QVERIFY(strict.at(0).json().contains(QStringLiteral("parent")));
    QVERIFY(!strict.at(1).json().contains(QStringLiteral("parent")));
}

// On a server the debugger may start before a step's row has arrived: what that step does
// is unknown, so the owner is asked about it instead of it passing as harmless. Once the
// rows are read, a flow of pure fn steps runs unasked.
void TestRemoteEditing::stepRowsNotYetReadAreAskedAbout()
{
    QVERIFY(connectTo(m_server.baseUrl()));
    QVERIFY(selectAndLoad(QStringLiteral("MORNING")));
    QVERIFY(!document()->row(QStringLiteral("NOW")) || !document()->row(QStringLiteral("ECHO_BACK")));
    m_prompter->worldEffectsAnswer = false;
    m_prompter->worldEffectsQuestions.clear();
    FlowDebuggerPanel *debugger = m_window->flowPane()->debugger();
    // The row came after the pane first showed it: its plan is there to run now.
    QTRY_VERIFY(debugger->continueAction()->isEnabled());
    debugger->continueAction()->trigger();
    QCOMPARE(m_prompter->worldEffectsQuestions.size(), 1);
    const QStringList asked = m_prompter->worldEffectsQuestions.first();
    QCOMPARE(asked.first(), QStringLiteral("MORNING"));
    QVERIFY2(asked.join(u'\n').contains(QStringLiteral("not read from the server yet")),
             qPrintable(asked.join(u'\n')));
    QCOMPARE(debugger->status(), QStringLiteral("Not run: MORNING was not confirmed."));
    QVERIFY(!debugger->session()->run());

    QTRY_VERIFY(document()->row(QStringLiteral("NOW")) && document()->row(QStringLiteral("ECHO_BACK")));
    m_prompter->worldEffectsQuestions.clear();
    debugger->continueAction()->trigger();
    QVERIFY(m_prompter->worldEffectsQuestions.isEmpty());
    QTRY_VERIFY(debugger->status().startsWith(QStringLiteral("Finished in")));
}

void TestRemoteEditing::disconnectGoesBackToTheLocalFile()
{
    m_window->fileActions()->openPath(m_localPath); // puts it on top of the recent files
    QVERIFY(connectTo(m_server.baseUrl()));
    QVERIFY(m_window->connectActions()->disconnectFromServer());
    QVERIFY(!m_session->connection());
    QVERIFY(m_session->ledger());
    QVERIFY(m_session->history());
    QVERIFY(m_session->tokens());
    QVERIFY(m_window->findChild<QAction *>(QStringLiteral("tokensAction"))->isEnabled());
    QVERIFY(m_session->readOnlyColumns().isEmpty());
    QCOMPARE(m_session->location(), m_localPath);
    QCOMPARE(m_window->connectionMonitor()->state(), ConnectionMonitor::State::None);
    QVERIFY(!m_window->findChild<QLabel *>(QStringLiteral("connectionStatus"))->isVisible());
    m_window->findChild<QDockWidget *>(QStringLiteral("receiptDock"))->raise();
    QTRY_VERIFY(m_window->receiptsPane()->viewer());
    QVERIFY(!m_window->connectActions()->disconnectAction()->isEnabled());
}

QTEST_MAIN(TestRemoteEditing)
#include "tst_remoteediting.moc"
