#include "dispatch/directory/localdirectory.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/views/shell/samplewindow.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/deferredcontent.h"
#include "views/common/directorysession.h"
#include "views/editor/roweditorpanel.h"
#include "views/editor/rowhistorypanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/contractview.h"
#include "views/lint/lintpanel.h"
#include "views/receipts/receiptspane.h"
#include "views/shell/editactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/mainwindow.h"
#include "views/shell/recentfiles.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QWindow>

// The whole window wired up: title, counts, file flows and the ask-on-close.
class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void titleNamesTheFileAndMarksUnsavedEdits();
    void statusBarCountsRows();
    void findFocusesTheSearchBox();
    void tableSelectionDrivesTheEditorAndBack();
    void newRowIsSelectedWithItsKeyReadyToType();
    void saveIncludesAKeyStillBeingTyped();
    void closingWithUnsavedEditsAsks();
    void openFailureKeepsTheCurrentDirectory();
    void openingAnotherFileSwapsTheDocument();
    void importReportsTheRowCountAndReloads();
    void importFailureShowsTheNamedError();
    void importOfNoncompliantRowsCanBeDeclined();
    void exportWritesTheChosenFormat();
    void newDirectoryOffersTheSampleRows();
    void geometryIsRememberedOnClose();
    void panelsBehindATabWaitUntilTheirTabIsChosen();

private:
    FakePrompter &prompter() { return *m_sample->prompter; }

    std::unique_ptr<SampleWindow> m_sample;
};

void TestMainWindow::init()
{
    m_sample = std::make_unique<SampleWindow>();
    QVERIFY(m_sample->open());
}

void TestMainWindow::cleanup()
{
    m_sample.reset();
}

void TestMainWindow::titleNamesTheFileAndMarksUnsavedEdits()
{
    QVERIFY(m_sample->window->windowTitle().startsWith(QStringLiteral("Capdesk — directory.db")));
    QCOMPARE(m_sample->window->windowHandle()->title(), QStringLiteral("Capdesk — directory.db"));
    m_sample->session->document()->setField(QStringLiteral("NOW"), QStringLiteral("target"),
                                            QStringLiteral("uuid"));
    QVERIFY(m_sample->window->isWindowModified());
    QCOMPARE(m_sample->window->windowHandle()->title(), QStringLiteral("Capdesk — directory.db*"));
    m_sample->session->document()->undoStack()->undo();
    QCOMPARE(m_sample->window->windowHandle()->title(), QStringLiteral("Capdesk — directory.db"));
}

void TestMainWindow::statusBarCountsRows()
{
    auto *count = m_sample->window->statusBar()->findChild<QLabel *>(QStringLiteral("rowCount"));
    QVERIFY(count);
    QCOMPARE(count->text(), QStringLiteral("5 of 5 rows"));
    QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), QStringLiteral("weather"));
    QCOMPARE(count->text(), QStringLiteral("1 of 5 rows"));
}

void TestMainWindow::findFocusesTheSearchBox()
{
    m_sample->window->tableView()->setFocus();
    QTest::keySequence(m_sample->window.get(), QKeySequence::Find);
    QVERIFY(m_sample->window->filterBar()->searchEdit()->hasFocus());
}

void TestMainWindow::tableSelectionDrivesTheEditorAndBack()
{
    // The first row is shown on open.
    QCOMPARE(m_sample->window->editorPanel()->key(), QStringLiteral("ECHO_BACK"));
    QVERIFY(m_sample->window->tableView()->selectKey(QStringLiteral("TRIAGE")));
    QCOMPARE(m_sample->window->editorPanel()->key(), QStringLiteral("TRIAGE"));

    // Renaming a new row in the editor moves the table's selection with it.
    m_sample->window->editActions()->createRow(QStringLiteral("agent"));
    auto *key = m_sample->window->editorPanel()->findChild<QLineEdit *>(QStringLiteral("key"));
    QTest::keyClicks(key, QStringLiteral("HELPER"));
    QTest::keyClick(key, Qt::Key_Return);
    QCOMPARE(m_sample->window->tableView()->currentKey(), QStringLiteral("HELPER"));
}

void TestMainWindow::newRowIsSelectedWithItsKeyReadyToType()
{
    m_sample->window->editActions()->createRow(QStringLiteral("flow"));
    const QString key = m_sample->window->editorPanel()->key();
    QVERIFY(key.startsWith(QStringLiteral("NEW_FLOW")));
    QCOMPARE(m_sample->window->tableView()->currentKey(), key);
    auto *keyEdit = m_sample->window->editorPanel()->findChild<QLineEdit *>(QStringLiteral("key"));
    QVERIFY(keyEdit->hasFocus());
    QCOMPARE(keyEdit->selectedText(), key);
}

void TestMainWindow::saveIncludesAKeyStillBeingTyped()
{
    m_sample->window->editActions()->createRow(QStringLiteral("fn"));
    // A new row must pass the hygiene gate to be saved: give it what the template leaves out.
    const QString created = m_sample->window->editorPanel()->key();
    DirectoryDocument *document = m_sample->session->document();
    document->setField(created, QStringLiteral("target"), QStringLiteral("echo"));
    document->setField(created, QStringLiteral("content"),
                       QStringLiteral("# WHAT: Echoes its text.\n# WHEN_TO_USE: a test saves a new row.\n"
                                      "# ARGS: $1=text\n# EX: [%1]a[/%1]\n# OUTPUT: the text.\n")
                           .arg(created));
    auto *key = m_sample->window->editorPanel()->findChild<QLineEdit *>(QStringLiteral("key"));
    key->setFocus();
    key->selectAll();
    QTest::keyClicks(key, QStringLiteral("TYPED_KEY")); // no Return yet
    QTest::keySequence(m_sample->window.get(), QKeySequence::Save);
    QVERIFY(!m_sample->session->document()->isModified());
    auto fresh = SqlDirectoryStore::open(m_sample->path);
    QVERIFY(fresh.ok());
    QVERIFY(fresh.value()->row(QStringLiteral("TYPED_KEY")).ok());
    QCOMPARE(m_sample->window->editorPanel()->key(), QStringLiteral("TYPED_KEY"));
}

void TestMainWindow::closingWithUnsavedEditsAsks()
{
    m_sample->session->document()->setField(QStringLiteral("NOW"), QStringLiteral("target"),
                                            QStringLiteral("uuid"));

    prompter().unsavedAnswer = Prompter::UnsavedChoice::Cancel;
    QVERIFY(!m_sample->window->close());
    QVERIFY(m_sample->window->isVisible());
    QCOMPARE(prompter().unsavedQuestions.size(), 1);

    prompter().unsavedAnswer = Prompter::UnsavedChoice::Save;
    QVERIFY(m_sample->window->close());
    auto fresh = SqlDirectoryStore::open(m_sample->path);
    QVERIFY(fresh.ok());
    QCOMPARE(fresh.value()->row(QStringLiteral("NOW")).value().target, QStringLiteral("uuid"));
}

void TestMainWindow::openFailureKeepsTheCurrentDirectory()
{
    DirectoryDocument *before = m_sample->session->document();
    before->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    const QString notes = m_sample->dir->filePath(QStringLiteral("notes.db"));
    QFile file(notes);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a database");
    file.close();

    prompter().openPath = notes;
    prompter().unsavedAnswer = Prompter::UnsavedChoice::Discard;
    m_sample->window->fileActions()->openAction()->trigger();
    QCOMPARE(prompter().errors.size(), 1);
    QVERIFY2(prompter().errors.first().contains(QStringLiteral("not a SQLite database")),
             qPrintable(prompter().errors.first()));
    QCOMPARE(m_sample->session->document(), before);
    QCOMPARE(before->row(QStringLiteral("NOW"))->target, QStringLiteral("uuid"));
    QVERIFY(m_sample->window->windowTitle().contains(QStringLiteral("directory.db")));
}

void TestMainWindow::openingAnotherFileSwapsTheDocument()
{
    const QString other = m_sample->dir->filePath(QStringLiteral("other.db"));
    QVERIFY(openStoreWithRows(other, {makeRow(QStringLiteral("ELSEWHERE"), QStringLiteral("fn"),
                                              QStringLiteral("uuid"), QStringLiteral("misc"))}));
    QPointer<DirectoryDocument> before = m_sample->session->document();
    prompter().openPath = other;
    m_sample->window->fileActions()->openAction()->trigger();
    QVERIFY(prompter().errors.isEmpty());
    QVERIFY(before.isNull()); // the old document is gone, its views rewired
    QCOMPARE(m_sample->window->tableView()->model(), m_sample->session->document()->tableModel());
    QCOMPARE(m_sample->session->document()->tableModel()->totalRows(), 1);
    QCOMPARE(m_sample->window->editorPanel()->key(), QStringLiteral("ELSEWHERE"));
    QVERIFY(m_sample->window->windowTitle().startsWith(QStringLiteral("Capdesk — other.db")));
    QCOMPARE(RecentFiles::list().value(0), QFileInfo(other).absoluteFilePath());

    // Undo belongs to the new document now.
    m_sample->session->document()->setField(QStringLiteral("ELSEWHERE"), QStringLiteral("target"),
                                            QStringLiteral("now"));
    m_sample->window->editActions()->undoAction()->trigger();
    QCOMPARE(m_sample->session->document()->row(QStringLiteral("ELSEWHERE"))->target, QStringLiteral("uuid"));
}

void TestMainWindow::importReportsTheRowCountAndReloads()
{
    QJsonArray rows;
    rows.append(
        makeRow(QStringLiteral("IMPORTED_ONE"), QStringLiteral("fn"), QStringLiteral("uuid"), QString())
            .toJson());
    rows.append(
        makeRow(QStringLiteral("IMPORTED_TWO"), QStringLiteral("fn"), QStringLiteral("now"), QString())
            .toJson());
    const QString json = m_sample->dir->filePath(QStringLiteral("rows.json"));
    QFile file(json);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(rows).toJson());
    file.close();

    // The rows have no doc lines: the import asks, as --allow-noncompliant would let them in.
    prompter().importPath = json;
    prompter().importNoncompliantAnswer = true;
    m_sample->window->fileActions()->importAction()->trigger();
    QVERIFY2(prompter().errors.isEmpty(), qPrintable(prompter().errors.join(u'\n')));
    QCOMPARE(prompter().importNoncompliantQuestions.size(), 1);
    QVERIFY2(prompter().importNoncompliantQuestions.first().contains(
                 QStringLiteral("IMPORTED_ONE: H010 doc_what")),
             qPrintable(prompter().importNoncompliantQuestions.first()));
    QCOMPARE(prompter().infos.size(), 1);
    QVERIFY2(prompter().infos.first().contains(QStringLiteral("Imported 2 row")),
             qPrintable(prompter().infos.first()));
    QVERIFY2(prompter().infos.first().contains(QStringLiteral("IMPORTED_TWO: H010 doc_what")),
             qPrintable(prompter().infos.first()));
    QCOMPARE(m_sample->session->document()->tableModel()->totalRows(), 7);
    QVERIFY(m_sample->session->document()->contains(QStringLiteral("IMPORTED_TWO")));
}

void TestMainWindow::importFailureShowsTheNamedError()
{
    QJsonArray rows;
    rows.append(
        makeRow(QStringLiteral("NOW"), QStringLiteral("fn"), QStringLiteral("now"), QString()).toJson());
    const QString json = m_sample->dir->filePath(QStringLiteral("clash.json"));
    QFile file(json);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(rows).toJson());
    file.close();

    prompter().importPath = json;
    m_sample->window->fileActions()->importAction()->trigger();
    QCOMPARE(prompter().errors.size(), 1);
    QVERIFY2(prompter().errors.first().contains(QStringLiteral("NOW")),
             qPrintable(prompter().errors.first()));
    QVERIFY(prompter().infos.isEmpty());
    QCOMPARE(m_sample->session->document()->tableModel()->totalRows(), 5);
}

void TestMainWindow::importOfNoncompliantRowsCanBeDeclined()
{
    QJsonArray rows;
    rows.append(makeRow(QStringLiteral("BARE_ROW"), QStringLiteral("fn"), QStringLiteral("uuid"), QString())
                    .toJson());
    const QString json = m_sample->dir->filePath(QStringLiteral("bare.json"));
    QFile file(json);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(rows).toJson());
    file.close();

    prompter().importPath = json;
    prompter().importNoncompliantAnswer = false;
    m_sample->window->fileActions()->importAction()->trigger();
    QCOMPARE(prompter().importNoncompliantQuestions.size(), 1);
    QCOMPARE(prompter().errors.size(), 1);
    QVERIFY2(prompter().errors.first().contains(QStringLiteral("BARE_ROW: H010 doc_what")),
             qPrintable(prompter().errors.first()));
    QVERIFY(prompter().infos.isEmpty());
    QCOMPARE(m_sample->session->document()->tableModel()->totalRows(), 5);
    QVERIFY(!m_sample->session->document()->contains(QStringLiteral("BARE_ROW")));
}

void TestMainWindow::exportWritesTheChosenFormat()
{
    const QString json = m_sample->dir->filePath(QStringLiteral("out.json"));
    prompter().exportTarget = {json, Prompter::ExportFormat::Json};
    m_sample->window->fileActions()->exportAction()->trigger();
    QVERIFY(prompter().errors.isEmpty());
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(jsonFile.readAll()).array().size(), 5);

    const QString sql = m_sample->dir->filePath(QStringLiteral("out.sql"));
    prompter().exportTarget = {sql, Prompter::ExportFormat::Sql};
    m_sample->window->fileActions()->exportAction()->trigger();
    QFile sqlFile(sql);
    QVERIFY(sqlFile.open(QIODevice::ReadOnly));
    const QByteArray dump = sqlFile.readAll();
    QVERIFY(dump.contains("INSERT"));
    QVERIFY(dump.contains("WEATHER_NOW"));
}

void TestMainWindow::newDirectoryOffersTheSampleRows()
{
    prompter().newPath = m_sample->dir->filePath(QStringLiteral("fresh/new.db"));
    prompter().samplesAnswer = true;
    m_sample->window->fileActions()->newAction()->trigger();
    QVERIFY2(prompter().errors.isEmpty(), qPrintable(prompter().errors.join(u'\n')));
    QVERIFY(m_sample->session->document()->tableModel()->totalRows() >= 10);
    QVERIFY(m_sample->window->windowTitle().startsWith(QStringLiteral("Capdesk — new.db")));

    // The same name again is refused rather than overwritten.
    m_sample->window->fileActions()->newAction()->trigger();
    QCOMPARE(prompter().errors.size(), 1);
    QVERIFY(prompter().errors.first().contains(QStringLiteral("already exists")));
}

void TestMainWindow::geometryIsRememberedOnClose()
{
    m_sample->window->resize(1000, 700);
    QVERIFY(m_sample->window->close());
    QSettings settings;
    QVERIFY(!settings.value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
    QVERIFY(!settings.value(QStringLiteral("mainWindow/splitter")).toByteArray().isEmpty());
}

// The first frame carries only what is on screen: the docks behind the Shape and invoke
// tab and the editor's History and Contract tabs are placed once chosen, and the Receipts
// dock reads the ledger only then.
void TestMainWindow::panelsBehindATabWaitUntilTheirTabIsChosen()
{
    MainWindow *window = m_sample->window.get();
    QTRY_VERIFY(window->callPanel()->isVisible());
    for (QWidget *behind : std::initializer_list<QWidget *>{
             window->flowPane(), window->receiptsPane(), window->lintPanel(),
             window->editorPanel()->historyPanel(), window->editorPanel()->contractView()}) {
        QVERIFY(behind);
        QVERIFY2(!behind->isVisible(), qPrintable(behind->objectName()));
        QVERIFY(!qobject_cast<DeferredContent *>(behind->parentWidget())->isPlaced());
    }
    QVERIFY(!window->receiptsPane()->viewer());

    window->findChild<QDockWidget *>(QStringLiteral("receiptDock"))->raise();
    QTRY_VERIFY(window->receiptsPane()->isVisible());
    QVERIFY(window->receiptsPane()->viewer());
    QVERIFY(!window->flowPane()->isVisible());

    RowHistoryPanel *history = window->editorPanel()->historyPanel();
    window->editorPanel()->findChild<QTabWidget *>()->setCurrentIndex(1);
    QTRY_VERIFY(history->isVisible());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
