#include "dispatch/directory/localdirectory.h"
#include "dispatch/flows/run/flowdebugsession.h"
#include "dispatch/flows/run/flowexecutor.h"
#include "dispatch/secrets/memorysecrets.h"
#include "models/callhistorymodel.h"
#include "models/changefeedpoller.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/lintcontroller.h"
#include "models/lintstate.h"
#include "models/secretlistmodel.h"
#include "remote/remotedirectorystore.h"
#include "remote/serverconnection.h"
#include "tests/support/guistallprobe.h"
#include "tests/support/latencyproxy.h"
#include "tests/support/serveprocess.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/conflictresolver.h"
#include "views/editor/mergedialog.h"
#include "views/editor/roweditorpanel.h"
#include "views/editor/rowtitlebar.h"
#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/invokepanel.h"
#include "views/invoke/shapepreviewpanel.h"
#include "views/secrets/secretsdialog.h"
#include "views/shell/connectactions.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>

// The window against a server a real round trip away (issue 12): the real MainWindow and
// a real `capdeskctl serve`, with a LatencyProxy between them that delays every request
// and every answer. For each action, the GUI thread must keep answering (largest gap,
// loop level, delay of keys posted meanwhile), and the server's access log says how many
// requests the action cost.
class TestRemoteLatency : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void openingTheServerNeverStalls_data();
    void openingTheServerNeverStalls();
    void selectingARowCostsOneReadAndReselectingNone_data();
    void selectingARowCostsOneReadAndReselectingNone();
    void savingIsOnePatchAndKeepsWhatIsTypedMeanwhile_data();
    void savingIsOnePatchAndKeepsWhatIsTypedMeanwhile();
    void cancelStopsASaveBeforeItsNextRequest();
    void aRefusedSaveNeverStalls();
    void aConflictOpensTheMergeWithoutStalling();
    void shapeAndInvokeNeverStall();
    void aFlowDebugStepNeverStalls();
    void reloadNeverStalls();
    void theSecretsDialogReadsTheServerInTheBackground();
    void aProfilesIntervalReachesTheChangeFeed();

private:
    void openWindow();
    void connectThroughProxy();
    std::optional<Row> selectAndLoad(const QString &key);
    bool saveAndWait();
    void typeInto(const QString &column, const QString &text);
    QLineEdit *line(const QString &column) const;
    // Requests in the server's access log since the last call, e.g. "GET /api/directory/NOW ".
    int logged(const QByteArray &prefix);
    void verifyNoStall(const GuiStallProbe &probe) const;
    DirectoryDocument *document() const { return m_session->document(); }

    QTemporaryDir m_dir;
    QString m_localPath;
    ServeProcess m_server;
    std::unique_ptr<LatencyProxy> m_proxy;
    QByteArray m_log;
    const QByteArray m_key = QByteArrayLiteral("remote-latency-owner-key-42");
    FakePrompter *m_prompter = nullptr;
    std::unique_ptr<DirectorySession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

namespace {

// The bar for every action, with room for a loaded CI machine; the benchmark
// reports the real numbers against the 50 ms target.
constexpr qint64 kMaxStallMs = 100;

} // namespace

void TestRemoteLatency::initTestCase()
{
    const QString served = m_dir.filePath(QStringLiteral("served.db"));
    m_localPath = m_dir.filePath(QStringLiteral("local.db"));
    QList<Row> rows = sampleRows();
    for (Row &row : rows) {
        row.content = QStringLiteral("# WHAT: %1\n# WHEN_TO_USE: tests\n").arg(row.key) + row.content;
        // A name for the Secrets dialog to list; its value is never needed.
        if (row.key == QLatin1String("WEATHER_NOW"))
            row.auth = QStringLiteral("bearer:CAPDESK_LATENCY_WEATHER_KEY");
    }
    // One row that meets every hygiene rule, so an edit can break it (a refused save).
    Row documented;
    documented.key = QStringLiteral("DOCUMENTED_ECHO");
    documented.type = QStringLiteral("fn");
    documented.target = QStringLiteral("echo");
    documented.category = QStringLiteral("tools");
    documented.content =
        QStringLiteral("# WHAT: Echoes its text for a latency test.\n# WHEN_TO_USE: a test needs it.\n"
                       "# ARGS: $1=text\n# EX: [DOCUMENTED_ECHO]hi[/DOCUMENTED_ECHO]\n"
                       "# OUTPUT: the text");
    documented.examples = QStringLiteral("[\"hi\"]");
    rows.append(documented);
    QVERIFY(openStoreWithRows(served, rows));
    QVERIFY(openStoreWithRows(m_localPath, sampleRows()));
    QString error;
    QVERIFY2(m_server.start(served, m_key, &error), qPrintable(error));
    m_proxy = std::make_unique<LatencyProxy>(QStringLiteral("127.0.0.1"), m_server.port());
    QVERIFY2(m_proxy->listen(&error), qPrintable(error));
}

void TestRemoteLatency::init()
{
    QSettings().clear();
    m_proxy->setRoundTripMs(300);
    openWindow();
}

void TestRemoteLatency::cleanup()
{
    if (m_window)
        m_prompter->unsavedAnswer = Prompter::UnsavedChoice::Discard;
    m_window.reset();
    m_session.reset();
}

void TestRemoteLatency::cleanupTestCase()
{
    m_server.stop();
}

void TestRemoteLatency::openWindow()
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

void TestRemoteLatency::connectThroughProxy()
{
    QSignalSpy finished(m_window->connectActions(), &ConnectActions::connectFinished);
    QVERIFY(m_window->connectActions()->connectTo({QStringLiteral("slow"), m_proxy->url()},
                                                  QString::fromLatin1(m_key)));
    QVERIFY(finished.wait(30000));
    QVERIFY(finished.first().first().toBool());
    if (document()->tableModel()->isLoading()) {
        QSignalSpy loaded(document()->tableModel(), &DirectoryTableModel::loadFinished);
        QVERIFY(loaded.wait(30000));
    }
    QCOMPARE(document()->tableModel()->totalRows(), int(sampleRows().size()) + 1);
    logged({}); // what connecting cost is not what the test counts
}

std::optional<Row> TestRemoteLatency::selectAndLoad(const QString &key)
{
    m_window->tableView()->selectKey(key);
    QSignalSpy changed(document(), &DirectoryDocument::rowChanged);
    for (int waits = 0; !document()->row(key) && waits < 300; ++waits)
        changed.wait(100);
    return document()->row(key);
}

bool TestRemoteLatency::saveAndWait()
{
    QSignalSpy saved(document(), &DirectoryDocument::saved);
    QSignalSpy failed(document(), &DirectoryDocument::saveFailed);
    if (!m_window->editActions()->save())
        return false;
    // qWaitFor, not QSignalSpy::wait: it waits at loop level 0, as the stall probe expects.
    if (!QTest::qWaitFor([&] { return !saved.isEmpty() || !failed.isEmpty(); }, 30000))
        return false;
    return !saved.isEmpty();
}

QLineEdit *TestRemoteLatency::line(const QString &column) const
{
    return m_window->editorPanel()->findChild<QLineEdit *>(column);
}

void TestRemoteLatency::typeInto(const QString &column, const QString &text)
{
    QLineEdit *edit = line(column);
    QVERIFY(edit);
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

int TestRemoteLatency::logged(const QByteArray &prefix)
{
    const QByteArray all = m_server.standardError();
    const QByteArray fresh = all.mid(m_log.size());
    m_log = all;
    int count = 0;
    for (const QByteArray &entry : fresh.split('\n')) {
        if (!prefix.isEmpty() && entry.startsWith(prefix))
            ++count;
    }
    return count;
}

void TestRemoteLatency::verifyNoStall(const GuiStallProbe &probe) const
{
    QVERIFY2(probe.largestGapMs() <= kMaxStallMs, qPrintable(probe.summary()));
    QVERIFY2(probe.worstKeyDelayMs() <= kMaxStallMs, qPrintable(probe.summary()));
    // A test waits in QSignalSpy::wait (level 1) or QTest::qWait (level 0); an action of
    // the app's own running a nested loop inside either would take it past 1.
    QVERIFY2(probe.deepestLoopLevel() <= 1, qPrintable(probe.summary()));
    QVERIFY2(probe.keysDelivered() == probe.keysPosted(), qPrintable(probe.summary()));
}

void TestRemoteLatency::openingTheServerNeverStalls_data()
{
    QTest::addColumn<int>("roundTripMs");
    QTest::newRow("300 ms") << 300;
    QTest::newRow("2 s") << 2000;
}

void TestRemoteLatency::openingTheServerNeverStalls()
{
    QFETCH(int, roundTripMs);
    m_proxy->setRoundTripMs(roundTripMs);
    GuiStallProbe probe;
    probe.start();
    connectThroughProxy();
    probe.stop();
    verifyNoStall(probe);
}

void TestRemoteLatency::selectingARowCostsOneReadAndReselectingNone_data()
{
    QTest::addColumn<int>("roundTripMs");
    QTest::newRow("300 ms") << 300;
    QTest::newRow("2 s") << 2000;
}

void TestRemoteLatency::selectingARowCostsOneReadAndReselectingNone()
{
    QFETCH(int, roundTripMs);
    connectThroughProxy();
    m_proxy->setRoundTripMs(roundTripMs);
    const QString key = QStringLiteral("WEATHER_NOW");
    RowEditorPanel *editor = m_window->editorPanel();

    GuiStallProbe probe;
    probe.start();
    m_window->tableView()->selectKey(key);
    // At once: the summary, greyed, saying what it waits for.
    QCOMPARE(editor->key(), key);
    QCOMPARE(editor->titleBar()->stateText(), QStringLiteral("loading %1…").arg(key));
    QCOMPARE(line(QStringLiteral("target"))->text(),
             QStringLiteral("GET https://api.example.com/weather/$1"));
    QVERIFY(!line(QStringLiteral("target"))->isEnabled());
    QVERIFY(selectAndLoad(key));
    QTRY_COMPARE(editor->titleBar()->stateText(), QStringLiteral("saved"));
    QVERIFY(line(QStringLiteral("target"))->isEnabled());
    probe.stop();
    verifyNoStall(probe);
    // Every panel asked for the row; the server was asked once.
    QCOMPARE(logged("GET /api/directory/WEATHER_NOW "), 1);

    // Back and forth: a fresh row is shown from what was read, within the same frame.
    QVERIFY(selectAndLoad(QStringLiteral("NOW")));
    logged({});
    m_window->tableView()->selectKey(key);
    QVERIFY(document()->row(key));
    QCOMPARE(editor->titleBar()->stateText(), QStringLiteral("saved"));
    QCOMPARE(logged("GET /api/directory/WEATHER_NOW "), 0);
}

void TestRemoteLatency::savingIsOnePatchAndKeepsWhatIsTypedMeanwhile_data()
{
    QTest::addColumn<int>("roundTripMs");
    QTest::newRow("300 ms") << 300;
    QTest::newRow("2 s") << 2000;
}

void TestRemoteLatency::savingIsOnePatchAndKeepsWhatIsTypedMeanwhile()
{
    QFETCH(int, roundTripMs);
    connectThroughProxy();
    m_proxy->setRoundTripMs(roundTripMs);
    const QString key = QStringLiteral("ECHO_BACK");
    QVERIFY(selectAndLoad(key));
    logged({});

    GuiStallProbe probe;
    probe.start();
    typeInto(QStringLiteral("category"), QStringLiteral("saved-%1").arg(roundTripMs));
    QSignalSpy saved(document(), &DirectoryDocument::saved);
    QVERIFY(m_window->editActions()->save());
    QVERIFY(document()->isSaving());
    QCOMPARE(m_window->editorPanel()->titleBar()->stateText(), QStringLiteral("saving…"));
    QVERIFY(m_window->editActions()->cancelSaveAction()->isEnabled());
    // Typed while the save is on its way: kept, and still unsaved afterwards.
    const QString typedMeanwhile = QStringLiteral("typed-meanwhile-%1").arg(roundTripMs);
    typeInto(QStringLiteral("allowed_categories"), typedMeanwhile);
    QVERIFY(saved.wait(30000));
    probe.stop();
    verifyNoStall(probe);

    QCOMPARE(logged("PATCH /api/directory/ECHO_BACK "), 1);
    QCOMPARE(logged("GET /api/directory/ECHO_BACK "), 0); // our server checks If-Match itself
    QVERIFY(document()->isRowModified(key));
    QCOMPARE(document()->row(key)->allowedCategories, typedMeanwhile);
    QCOMPARE(document()->baseRow(key)->category, QStringLiteral("saved-%1").arg(roundTripMs));
    QCOMPARE(line(QStringLiteral("allowed_categories"))->text(), typedMeanwhile);
    // The second save is checked against the version the first one wrote.
    QVERIFY(saveAndWait());
    QVERIFY(!document()->isModified());
    QCOMPARE(logged("PATCH /api/directory/ECHO_BACK "), 1);
    RemoteDirectoryStore direct(
        std::make_shared<ServerConnection>(ServerEndpoint{m_server.baseUrl(), QString::fromLatin1(m_key)}));
    const StoreResult<Row> stored = direct.row(key);
    QVERIFY(stored.ok());
    QCOMPARE(stored.value().category, QStringLiteral("saved-%1").arg(roundTripMs));
    QCOMPARE(stored.value().allowedCategories, typedMeanwhile);
}

void TestRemoteLatency::cancelStopsASaveBeforeItsNextRequest()
{
    connectThroughProxy();
    m_proxy->setRoundTripMs(2000);
    QVERIFY(selectAndLoad(QStringLiteral("NOW")));
    typeInto(QStringLiteral("category"), QStringLiteral("first-of-two"));
    QVERIFY(selectAndLoad(QStringLiteral("TRIAGE")));
    typeInto(QStringLiteral("category"), QStringLiteral("second-of-two"));
    logged({});

    GuiStallProbe probe;
    probe.start();
    QSignalSpy failed(document(), &DirectoryDocument::saveFailed);
    const qint64 sentBefore = m_proxy->bytesFromClients();
    QVERIFY(m_window->editActions()->save());
    // The first PATCH is on its way (held by the proxy); Cancel keeps the second from being sent.
    QTRY_VERIFY(m_proxy->bytesFromClients() > sentBefore);
    m_window->editActions()->cancelSaveAction()->trigger();
    QVERIFY(!failed.isEmpty() || failed.wait(30000));
    probe.stop();
    verifyNoStall(probe);

    QCOMPARE(failed.first().first().value<StoreError>().kind, StoreError::Kind::Cancelled);
    QCOMPARE(logged("PATCH /api/directory/"), 1);
    // The write that was already sent landed and counts as saved; the other is a draft.
    QVERIFY(!document()->isRowModified(QStringLiteral("NOW")));
    QVERIFY(document()->isRowModified(QStringLiteral("TRIAGE")));
    QCOMPARE(document()->row(QStringLiteral("TRIAGE"))->category, QStringLiteral("second-of-two"));
    QVERIFY(!document()->isSaving());
    QVERIFY(!m_window->editActions()->cancelSaveAction()->isEnabled());
}

void TestRemoteLatency::aRefusedSaveNeverStalls()
{
    connectThroughProxy();
    const QString key = QStringLiteral("DOCUMENTED_ECHO");
    QVERIFY(selectAndLoad(key));
    // The lint-all of the open directory is what explains a refusal before anything is sent.
    LintController *lint = m_window->lintController();
    QTRY_VERIFY_WITH_TIMEOUT(!lint->isRunning() && !lint->state()->all().isEmpty(), 30000);
    logged({});

    GuiStallProbe probe;
    probe.start();
    document()->setField(key, QStringLiteral("content"), QStringLiteral("no doc lines at all\n"));
    QVERIFY(!m_window->editActions()->save());
    probe.stop();
    verifyNoStall(probe);
    QCOMPARE(m_prompter->errors.size(), 1);
    QVERIFY2(m_prompter->errors.first().contains(QStringLiteral("H010")),
             qPrintable(m_prompter->errors.first()));
    QVERIFY(document()->isRowModified(key));
    QCOMPARE(logged("PATCH /api/directory/"), 0);
}

void TestRemoteLatency::aConflictOpensTheMergeWithoutStalling()
{
    connectThroughProxy();
    auto *flowDock = m_window->findChild<QDockWidget *>(QStringLiteral("flowDock"));
    QVERIFY(flowDock);
    flowDock->show();
    flowDock->raise();
    const QString key = QStringLiteral("MORNING");
    QVERIFY(selectAndLoad(key));
    typeInto(QStringLiteral("category"), QStringLiteral("mine"));
    RemoteDirectoryStore other(
        std::make_shared<ServerConnection>(ServerEndpoint{m_server.baseUrl(), QString::fromLatin1(m_key)}));
    QVERIFY(other.patch(key, {{QStringLiteral("allowed_categories"), QStringLiteral("theirs")}}).ok());

    GuiStallProbe probe;
    probe.start();
    QVERIFY(!saveAndWait());
    QTRY_VERIFY(m_window->conflictResolver()->dialog());
    MergeDialog *dialog = m_window->conflictResolver()->dialog();
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("mergeApply")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!document()->isModified(), 30000);
    probe.stop();
    verifyNoStall(probe);
    const StoreResult<Row> merged = other.row(key);
    QVERIFY(merged.ok());
    QCOMPARE(merged.value().category, QStringLiteral("mine"));
    QCOMPARE(merged.value().allowedCategories, QStringLiteral("theirs"));
}

void TestRemoteLatency::shapeAndInvokeNeverStall()
{
    connectThroughProxy();
    ShapePreviewPanel *shape = m_window->callPanel()->shapePanel();
    InvokePanel *invoke = m_window->callPanel()->invokePanel();

    GuiStallProbe probe;
    probe.start();
    QVERIFY(selectAndLoad(QStringLiteral("ECHO_BACK")));
    QTRY_VERIFY_WITH_TIMEOUT(!shape->lastResponse().isEmpty(), 30000);
    QSignalSpy added(static_cast<QAbstractItemModel *>(invoke->history()), &QAbstractItemModel::rowsInserted);
    QMetaObject::invokeMethod(invoke, &InvokePanel::invoke);
    QTRY_VERIFY(invoke->isBusy());
    QVERIFY(added.wait(30000));
    probe.stop();
    verifyNoStall(probe);
    QCOMPARE(logged("POST /api/dispatch "), 2); // one shape, one call
}

void TestRemoteLatency::aFlowDebugStepNeverStalls()
{
    connectThroughProxy();
    const QString key = QStringLiteral("MORNING");
    QVERIFY(selectAndLoad(key));
    // The visualizer reads the steps' rows; the debugger plans from them.
    QVERIFY(selectAndLoad(QStringLiteral("NOW")));
    QVERIFY(selectAndLoad(QStringLiteral("ECHO_BACK")));
    QVERIFY(selectAndLoad(key));
    FlowDebuggerPanel *debugger = m_window->flowPane()->debugger();
    QTRY_VERIFY(debugger->stepAction()->isEnabled());

    GuiStallProbe probe;
    probe.start();
    // The first step starts the run paused before its first step; the second runs it.
    debugger->stepAction()->trigger();
    QTRY_VERIFY(debugger->session()->run()
                && debugger->session()->run()->state() == FlowExecutor::State::Paused);
    debugger->stepAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(debugger->session()->run() && !debugger->session()->run()->steps().isEmpty()
                                 && debugger->session()->run()->steps().first().phase
                                        == FlowStepState::Phase::Done,
                             30000);
    probe.stop();
    verifyNoStall(probe);
}

void TestRemoteLatency::reloadNeverStalls()
{
    connectThroughProxy();
    QVERIFY(selectAndLoad(QStringLiteral("NOW")));
    typeInto(QStringLiteral("category"), QStringLiteral("kept-over-reload"));
    auto *reload = m_window->findChild<QAction *>(QStringLiteral("reloadAction"));
    QVERIFY(reload);

    GuiStallProbe probe;
    probe.start();
    QSignalSpy loaded(document()->tableModel(), &DirectoryTableModel::loadFinished);
    reload->trigger();
    QVERIFY(loaded.wait(30000));
    probe.stop();
    verifyNoStall(probe);
    QCOMPARE(document()->tableModel()->totalRows(), int(sampleRows().size()) + 1);
    QCOMPARE(document()->row(QStringLiteral("NOW"))->category, QStringLiteral("kept-over-reload"));
    QVERIFY(document()->isRowModified(QStringLiteral("NOW")));
}

void TestRemoteLatency::theSecretsDialogReadsTheServerInTheBackground()
{
    connectThroughProxy();
    KeychainStore keychain;
    MemorySecrets memory;
    FakePrompter prompter;

    GuiStallProbe probe;
    probe.start();
    SecretsDialog dialog(document()->sharedStore(), keychain, memory, prompter, m_window.get());
    dialog.show();
    QVERIFY(dialog.isReadingRows());
    QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("keychainActivity"))->text(),
             QStringLiteral("Reading the rows from the server\u2026"));
    QSignalSpy read(&dialog, &SecretsDialog::rowsRead);
    QVERIFY(read.wait(30000));
    probe.stop();
    verifyNoStall(probe);
    QVERIFY2(prompter.errors.isEmpty(), qPrintable(prompter.errors.join(u'\n')));
    QCOMPARE(dialog.model()->rowCount(), 1);
    QCOMPARE(dialog.model()->secretAt(0)->name, QStringLiteral("CAPDESK_LATENCY_WEATHER_KEY"));
}

void TestRemoteLatency::aProfilesIntervalReachesTheChangeFeed()
{
    QSignalSpy finished(m_window->connectActions(), &ConnectActions::connectFinished);
    QVERIFY(m_window->connectActions()->connectTo({QStringLiteral("slow"), m_proxy->url(), QString(), 7},
                                                  QString::fromLatin1(m_key)));
    QVERIFY(finished.wait(30000));
    QVERIFY(finished.first().first().toBool());
    QCOMPARE(document()->changeFeed()->interval(), 7000);
}

QTEST_MAIN(TestRemoteLatency)
#include "tst_remotelatency.moc"
