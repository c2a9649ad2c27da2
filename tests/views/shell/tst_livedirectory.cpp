#include "dispatch/directory/localdirectory.h"
#include "models/changefeedpoller.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/support/processrun.h"
#include "tests/support/serveprocess.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/conflictresolver.h"
#include "views/editor/mergedialog.h"
#include "views/editor/roweditorpanel.h"
#include "views/shell/connectactions.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>

// A live directory (issue 12): rows that another process writes, with `capdeskctl`, to
// the open file or to the open server appear in the window without reopening it; a row
// changed elsewhere under a draft keeps the draft and is merged on Save.
class TestLiveDirectory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void writesElsewhereAppear_data();
    void writesElsewhereAppear();
    void aChangeUnderADraftIsMergedOnSave_data();
    void aChangeUnderADraftIsMergedOnSave();
    void ownSavesAreNotReportedAsOutsideChanges();

private:
    void open(bool onServer);
    // capdeskctl against the open directory, as another process.
    ProcessRun::Result ctl(QStringList arguments, const QByteArray &input = {});
    QByteArray newRow(const QString &key) const;
    bool waitFor(const std::function<bool()> &shown, qint64 *elapsedMs = nullptr);
    DirectoryDocument *document() const { return m_session->document(); }

    QTemporaryDir m_dir;
    QString m_servedPath;
    QString m_localPath;
    ServeProcess m_server;
    bool m_onServer = false;
    const QByteArray m_key = QByteArrayLiteral("live-directory-owner-key-31");
    FakePrompter *m_prompter = nullptr;
    std::unique_ptr<DirectorySession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestLiveDirectory::initTestCase()
{
    m_servedPath = m_dir.filePath(QStringLiteral("served.db"));
    m_localPath = m_dir.filePath(QStringLiteral("local.db"));
    QVERIFY(openStoreWithRows(m_servedPath, sampleRows()));
    QVERIFY(openStoreWithRows(m_localPath, sampleRows()));
    QString error;
    QVERIFY2(m_server.start(m_servedPath, m_key, &error), qPrintable(error));
}

void TestLiveDirectory::init()
{
    QSettings().clear();
}

void TestLiveDirectory::cleanup()
{
    if (m_window)
        m_prompter->unsavedAnswer = Prompter::UnsavedChoice::Discard;
    m_window.reset();
    m_session.reset();
}

void TestLiveDirectory::cleanupTestCase()
{
    m_server.stop();
}

void TestLiveDirectory::open(bool onServer)
{
    m_onServer = onServer;
    m_session = std::make_unique<DirectorySession>();
    auto store = SqlDirectoryStore::open(m_localPath);
    QVERIFY(store.ok());
    QVERIFY(!m_session->open(LocalDirectory::over(store.value())).isError());
    auto fake = std::make_unique<FakePrompter>();
    m_prompter = fake.get();
    m_window = std::make_unique<MainWindow>(*m_session, std::move(fake));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    if (onServer) {
        QSignalSpy finished(m_window->connectActions(), &ConnectActions::connectFinished);
        QVERIFY(m_window->connectActions()->connectTo({QStringLiteral("live"), m_server.baseUrl()},
                                                      QString::fromLatin1(m_key)));
        QVERIFY(finished.wait(ConnectActions::requestTimeoutMs + 5000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(m_prompter->errors.join(QStringLiteral("; "))));
        // Our server's feed is cheap; the default keeps a production server quiet.
        QCOMPARE(document()->changeFeed()->interval(), 5000);
    } else {
        QCOMPARE(document()->changeFeed()->interval(), 1000);
    }
    if (document()->tableModel()->isLoading()) {
        QSignalSpy loaded(document()->tableModel(), &DirectoryTableModel::loadFinished);
        QVERIFY(loaded.wait(10000));
    }
    // The test waits for one poll, not for the default interval.
    document()->changeFeed()->setInterval(200);
}

ProcessRun::Result TestLiveDirectory::ctl(QStringList arguments, const QByteArray &input)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (m_onServer) {
        arguments << QStringLiteral("--server") << m_server.baseUrl().toString();
        environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(m_key));
    } else {
        arguments << QStringLiteral("--db") << m_localPath;
    }
    return ProcessRun::run(ServeProcess::program(), arguments, input, environment);
}

QByteArray TestLiveDirectory::newRow(const QString &key) const
{
    return QStringLiteral(R"({"key":"%1","type":"fn","target":"echo","category":"elsewhere",)"
                          R"("content":"# WHAT: written elsewhere\n# WHEN_TO_USE: a test\n# ARGS: $1=text\n)"
                          R"(# EX: [%1]a[/%1]\n# OUTPUT: the text"})")
        .arg(key)
        .toUtf8();
}

bool TestLiveDirectory::waitFor(const std::function<bool()> &shown, qint64 *elapsedMs)
{
    QElapsedTimer timer;
    timer.start();
    const bool ok = QTest::qWaitFor(shown, 10000);
    if (elapsedMs)
        *elapsedMs = timer.elapsed();
    return ok;
}

void TestLiveDirectory::writesElsewhereAppear_data()
{
    QTest::addColumn<bool>("onServer");
    QTest::newRow("file") << false;
    QTest::newRow("server") << true;
}

void TestLiveDirectory::writesElsewhereAppear()
{
    QFETCH(bool, onServer);
    open(onServer);
    const QString key = onServer ? QStringLiteral("LIVE_ON_SERVER") : QStringLiteral("LIVE_ON_FILE");
    DirectoryTableModel *table = document()->tableModel();

    QVERIFY(ctl({QStringLiteral("put")}, newRow(key)).exitCode == 0);
    qint64 elapsed = 0;
    QVERIFY(waitFor([&] { return table->summary(key).has_value(); }, &elapsed));
    qInfo("a row created elsewhere was shown after %lld ms", static_cast<long long>(elapsed));
    QCOMPARE(table->summary(key)->category, QStringLiteral("elsewhere"));

    QVERIFY(ctl({QStringLiteral("patch"), key}, R"({"category":"changed-elsewhere"})").exitCode == 0);
    QVERIFY(waitFor([&] { return table->summary(key)->category == QStringLiteral("changed-elsewhere"); }));
    // The editor shows the changed row, read again because its stamp moved.
    QVERIFY(m_window->tableView()->selectKey(key));
    QVERIFY(waitFor([&] {
        return m_window->editorPanel()->findChild<QLineEdit *>(QStringLiteral("category"))->text()
               == QStringLiteral("changed-elsewhere");
    }));

    QVERIFY(ctl({QStringLiteral("delete"), key}).exitCode == 0);
    QVERIFY(waitFor([&] { return !table->summary(key).has_value(); }));
    QVERIFY(!document()->contains(key));
}

void TestLiveDirectory::aChangeUnderADraftIsMergedOnSave_data()
{
    QTest::addColumn<bool>("onServer");
    QTest::newRow("file") << false;
    QTest::newRow("server") << true;
}

void TestLiveDirectory::aChangeUnderADraftIsMergedOnSave()
{
    QFETCH(bool, onServer);
    open(onServer);
    const QString key = QStringLiteral("WEATHER_NOW");
    QVERIFY(m_window->tableView()->selectKey(key));
    QVERIFY(waitFor([&] { return document()->row(key).has_value(); }));
    auto *category = m_window->editorPanel()->findChild<QLineEdit *>(QStringLiteral("category"));
    category->setFocus();
    category->selectAll();
    QTest::keyClicks(category, QStringLiteral("my-draft"));
    QVERIFY(document()->isRowModified(key));

    QSignalSpy polled(document()->changeFeed(), &ChangeFeedPoller::changed);
    QVERIFY(ctl({QStringLiteral("patch"), key}, R"({"allowed_categories":"their-edit"})").exitCode == 0);
    // Seen, but the draft is what the editor keeps showing.
    QVERIFY(polled.wait(10000));
    QVERIFY(document()->isRowModified(key));
    QCOMPARE(category->text(), QStringLiteral("my-draft"));
    QCOMPARE(document()->row(key)->category, QStringLiteral("my-draft"));

    // On a file the refusal is at once (save() answers false), on a server a round trip later.
    m_window->editActions()->save();
    QVERIFY(waitFor([&] { return m_window->conflictResolver()->dialog() != nullptr; }));
    MergeDialog *dialog = m_window->conflictResolver()->dialog();
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("mergeApply")), Qt::LeftButton);
    QVERIFY(waitFor([&] { return !document()->isModified(); }));
    const ProcessRun::Result stored = ctl({QStringLiteral("get"), key});
    QCOMPARE(stored.exitCode, 0);
    const QJsonObject row = QJsonDocument::fromJson(stored.out).object();
    QCOMPARE(row.value(QStringLiteral("category")).toString(), QStringLiteral("my-draft"));
    QCOMPARE(row.value(QStringLiteral("allowed_categories")).toString(), QStringLiteral("their-edit"));
}

void TestLiveDirectory::ownSavesAreNotReportedAsOutsideChanges()
{
    open(true);
    const QString key = QStringLiteral("NOW");
    QVERIFY(m_window->tableView()->selectKey(key));
    QVERIFY(waitFor([&] { return document()->row(key).has_value(); }));
    document()->setField(key, QStringLiteral("category"), QStringLiteral("own-save"));
    QSignalSpy saved(document(), &DirectoryDocument::saved);
    QVERIFY(m_window->editActions()->save());
    QVERIFY(saved.wait(10000));
    QSignalSpy elsewhere(document(), &DirectoryDocument::changedElsewhere);
    QSignalSpy polled(document()->changeFeed(), &ChangeFeedPoller::changed);
    // The feed reports the write (it is in the server's log), and nothing differs.
    QVERIFY(polled.wait(10000));
    QVERIFY(elsewhere.isEmpty());
}

QTEST_MAIN(TestLiveDirectory)
#include "tst_livedirectory.moc"
