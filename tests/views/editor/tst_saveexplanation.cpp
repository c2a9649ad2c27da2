#include "dispatch/directory/localdirectory.h"
#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "tests/support/lintfixture.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/roweditorpanel.h"
#include "views/shell/editactions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QUndoStack>

using namespace LintFixture;

// Save over the whole window on a real directory file: a save the hygiene gate would
// refuse is explained before it is attempted (rules, and whether the row was compliant
// before), nothing is written, no edit is lost and the editor lands on the failing field;
// a refusal the store makes itself is shown the same way; compliant saves just save.
class TestSaveExplanation : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void refusalIsExplainedBeforeSaving_data();
    void refusalIsExplainedBeforeSaving();
    void newRowMustHaveNoErrors();
    void fixedEditSavesWithoutAPrompt();
    void storeRefusalIsShownTheSameWay();

private:
    FakePrompter &prompter() { return *m_prompter; }
    DirectoryDocument *document() const { return m_session->document(); }
    QPlainTextEdit *contentEdit() const;
    // The row as a store opened afresh on the file reads it: what was really written.
    std::optional<Row> storedRow(const QString &key) const;
    void pressSave();

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    FakePrompter *m_prompter = nullptr;
    std::unique_ptr<DirectorySession> m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestSaveExplanation::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("directory.db"));
    Row legacy = undocumentedRow(QStringLiteral("LEGACY"));
    auto store =
        openStore(m_path, {goodRow(QStringLiteral("ECHO_A")), goodRow(QStringLiteral("ECHO_B")), legacy,
                           flowRow(QStringLiteral("PAIR"), QStringLiteral("ECHO_A > ECHO_B"))});
    QVERIFY(store);
    m_session = std::make_unique<DirectorySession>();
    QVERIFY(!m_session->open(LocalDirectory::over(store)).isError());
    auto fake = std::make_unique<FakePrompter>();
    m_prompter = fake.get();
    m_window = std::make_unique<MainWindow>(*m_session, std::move(fake));
    QSignalSpy linted(m_window->lintController(), &LintController::finished);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(linted.count() > 0 || linted.wait(5000));
}

void TestSaveExplanation::cleanup()
{
    prompter().unsavedAnswer = Prompter::UnsavedChoice::Discard;
    m_window.reset();
    m_session.reset();
    m_dir.reset();
}

QPlainTextEdit *TestSaveExplanation::contentEdit() const
{
    return m_window->editorPanel()->findChild<QPlainTextEdit *>(QStringLiteral("content"));
}

std::optional<Row> TestSaveExplanation::storedRow(const QString &key) const
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> fresh = SqlDirectoryStore::open(m_path);
    if (!fresh.ok())
        return std::nullopt;
    StoreResult<Row> row = fresh.value()->row(key);
    return row.ok() ? std::optional<Row>(row.value()) : std::nullopt;
}

void TestSaveExplanation::pressSave()
{
    QTest::keySequence(m_window.get(), QKeySequence::Save);
}

void TestSaveExplanation::refusalIsExplainedBeforeSaving_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("line"); // the doc line the user deletes
    QTest::addColumn<QStringList>("named"); // what the explanation must say
    QTest::addColumn<QString>("field"); // where the cursor lands

    QTest::addRow("WHAT deleted") << QStringLiteral("ECHO_A") << QStringLiteral("# WHAT:")
                                  << QStringList{QStringLiteral("H010"), QStringLiteral("doc_what"),
                                                 QStringLiteral("(content)")}
                                  << QStringLiteral("content");
    QTest::addRow("EX deleted") << QStringLiteral("PAIR") << QStringLiteral("# EX:")
                                << QStringList{QStringLiteral("H013"), QStringLiteral("doc_example")}
                                << QStringLiteral("content");
}

void TestSaveExplanation::refusalIsExplainedBeforeSaving()
{
    QFETCH(QString, key);
    QFETCH(QString, line);
    QFETCH(QStringList, named);
    QFETCH(QString, field);

    QVERIFY(m_window->tableView()->selectKey(key));
    QPlainTextEdit *content = contentEdit();
    QVERIFY(content);
    const QString before = content->toPlainText();
    // The user deletes the doc line by hand: cursor to its start, select it, delete.
    const int at = int(before.indexOf(line));
    QVERIFY(at >= 0);
    content->setFocus();
    QTextCursor cursor = content->textCursor();
    cursor.setPosition(at);
    content->setTextCursor(cursor);
    QTest::keyClick(content, Qt::Key_Down, Qt::ShiftModifier);
    QTest::keyClick(content, Qt::Key_Delete);
    const QString edited = content->toPlainText();
    QVERIFY(!edited.contains(line));
    m_window->tableView()->setFocus(); // away from the field, as a click on the toolbar would
    QSignalSpy attempted(document(), &DirectoryDocument::saveFailed);

    pressSave();

    QCOMPARE(attempted.count(), 0); // explained before the store was asked
    QCOMPARE(prompter().errors.size(), 1);
    const QString explanation = prompter().errors.first();
    QVERIFY2(explanation.contains(QStringLiteral("%1 was compliant before; these edits would add:").arg(key)),
             qPrintable(explanation));
    for (const QString &text : std::as_const(named))
        QVERIFY2(explanation.contains(text),
                 qPrintable(text + QStringLiteral(" missing from: ") + explanation));
    // Nothing was written; the edit is still there, undoable.
    const std::optional<Row> stored = storedRow(key);
    QVERIFY(stored);
    QVERIFY(stored->content.contains(line));
    QVERIFY(document()->isRowModified(key));
    QVERIFY(!document()->row(key)->content.contains(line));
    QCOMPARE(content->toPlainText(), edited);
    QVERIFY(document()->undoStack()->canUndo());
    // Back in the editor, on the field to fix.
    QCOMPARE(m_window->editorPanel()->key(), key);
    QVERIFY(QApplication::focusWidget());
    QCOMPARE(QApplication::focusWidget()->objectName(), field);
}

void TestSaveExplanation::newRowMustHaveNoErrors()
{
    m_window->editActions()->createRow(QStringLiteral("fn"));
    const QString key = m_window->editorPanel()->key();
    QVERIFY(key.startsWith(QStringLiteral("NEW_FN")));
    QSignalSpy attempted(document(), &DirectoryDocument::saveFailed);

    pressSave();

    QCOMPARE(attempted.count(), 0);
    QCOMPARE(prompter().errors.size(), 1);
    const QString explanation = prompter().errors.first();
    QVERIFY2(explanation.contains(QStringLiteral("%1 is new").arg(key)), qPrintable(explanation));
    QVERIFY(!explanation.contains(QStringLiteral("compliant before")));
    // A fresh row has an empty WHAT and WHEN_TO_USE and names no builtin yet.
    for (const QString &code : {QStringLiteral("H010"), QStringLiteral("H011"), QStringLiteral("H022")})
        QVERIFY2(explanation.contains(code),
                 qPrintable(code + QStringLiteral(" missing from: ") + explanation));
    QVERIFY(!storedRow(key));
    QVERIFY(document()->contains(key));
    QVERIFY(document()->isRowModified(key));
}

void TestSaveExplanation::fixedEditSavesWithoutAPrompt()
{
    // An edit that keeps the row compliant.
    Row echo = *document()->row(QStringLiteral("ECHO_A"));
    const QString when = QStringLiteral("# WHEN_TO_USE: When a caller wants its words back.");
    echo.content.replace(QStringLiteral("# WHEN_TO_USE: When a test needs a predictable answer."), when);
    document()->setField(echo.key, QStringLiteral("content"), echo.content);
    // A row that already broke the rules stays editable: the gate refuses regressions only.
    document()->setField(QStringLiteral("LEGACY"), QStringLiteral("target"), QStringLiteral("upper"));

    pressSave();

    QCOMPARE(prompter().errors, QStringList());
    QVERIFY(!document()->isModified());
    QVERIFY(storedRow(echo.key)->content.contains(when));
    QCOMPARE(storedRow(QStringLiteral("LEGACY"))->target, QStringLiteral("upper"));
}

void TestSaveExplanation::storeRefusalIsShownTheSameWay()
{
    // Another process deletes ECHO_B after the window linted the directory.
    {
        StoreResult<std::shared_ptr<SqlDirectoryStore>> other = SqlDirectoryStore::open(m_path);
        QVERIFY(other.ok());
        QVERIFY(!other.value()->remove(QStringLiteral("ECHO_B")).isError());
    }
    // A new flow naming it looks compliant here; the store, reading the file, refuses it.
    const QString key = document()->createRow(QStringLiteral("flow"));
    document()->setField(key, QStringLiteral("content"),
                         flowRow(key, QStringLiteral("ECHO_A > ECHO_B")).content);
    QVERIFY(m_window->lintController()->explainSave().isEmpty());
    QSignalSpy refused(document(), &DirectoryDocument::saveFailed);

    pressSave();

    QCOMPARE(refused.count(), 1);
    QCOMPARE(prompter().errors.size(), 1);
    const QString explanation = prompter().errors.first();
    QVERIFY2(explanation.contains(QStringLiteral("%1 is new").arg(key)), qPrintable(explanation));
    QVERIFY2(explanation.contains(QStringLiteral("H024 flow_key (content)")), qPrintable(explanation));
    QVERIFY(!storedRow(key));
    QVERIFY(document()->isRowModified(key));
    QCOMPARE(m_window->editorPanel()->key(), key);
}

QTEST_MAIN(TestSaveExplanation)
#include "tst_saveexplanation.moc"
