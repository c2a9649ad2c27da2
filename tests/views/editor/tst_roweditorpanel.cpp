#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "tests/views/viewtestsupport.h"
#include "views/editor/jsonfieldedit.h"
#include "views/editor/nullableintedit.h"
#include "views/editor/roweditorpanel.h"
#include "views/lint/rowfindingsview.h"
#include "views/shell/editactions.h"
#include "views/table/directorytableview.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>

// The editor against a real SQLite file: typing into its widgets, undo/redo through the
// Edit actions, saving, and reading the result back through a second connection.
class TestRowEditorPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void typedTargetSurvivesUndoRedoAndSave();
    void typingInContentKeepsTheCursor();
    void undoShortcutInAFieldUndoesTheDocument();
    void editingKeepsCrLfLineEndsAndNonBreakingSpaces();
    void checkboxesAndSeqEditTheRow();
    void typeComboOffersTheFourTypes();
    void jsonFieldsShowParseErrorsAndValidatorProblems();
    void newRowKeyIsEditableAndRenameFollowsUndo();
    void storedRowKeyIsReadOnly();
    void deletedRowShowsThePlaceholderUntilUndone();
    void lintFindingsAppearLiveOnTheirFields();

private:
    template<typename Widget>
    Widget *field(const QString &column) const
    {
        auto *widget = m_panel->findChild<Widget *>(column);
        if (!widget)
            qFatal("no field %s", qPrintable(column));
        return widget;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    FakePrompter m_prompter;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<QWidget> m_window;
    RowEditorPanel *m_panel = nullptr;
    DirectoryTableView *m_table = nullptr;
    EditActions *m_actions = nullptr;
};

void TestRowEditorPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("directory.db"));
    std::shared_ptr<SqlDirectoryStore> store = openStoreWithRows(m_path, sampleRows());
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());

    // A small window holding what the main window would: the table, the editor and the
    // Edit actions (whose shortcuts need a window to live in).
    m_window = std::make_unique<QWidget>();
    auto *layout = new QVBoxLayout(m_window.get());
    m_table = new DirectoryTableView;
    m_panel = new RowEditorPanel;
    layout->addWidget(m_table);
    layout->addWidget(m_panel);
    m_actions = new EditActions(m_table, m_prompter, m_window.get());
    m_window->addActions({m_actions->undoAction(), m_actions->redoAction(), m_actions->saveAction()});
    m_panel->setDocument(m_document.get());
    m_table->setDocument(m_document.get());
    m_actions->setDocument(m_document.get());
    m_window->resize(900, 900);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestRowEditorPanel::cleanup()
{
    m_window.reset();
    m_document.reset();
    m_dir.reset();
}

void TestRowEditorPanel::typedTargetSurvivesUndoRedoAndSave()
{
    const QString key = QStringLiteral("WEATHER_NOW");
    const QString before = QStringLiteral("GET https://api.example.com/weather/$1");
    const QString after = before + QStringLiteral("?units=metric");
    m_panel->showRow(key);
    auto *target = field<QLineEdit>(QStringLiteral("target"));
    QCOMPARE(target->text(), before);

    target->setFocus();
    target->end(false);
    QTest::keyClicks(target, QStringLiteral("?units=metric"));
    QCOMPARE(target->text(), after);
    QCOMPARE(m_document->row(key)->target, after);
    QVERIFY(m_document->isRowModified(key));
    // Typing in one field is one undoable step, and refreshing never pushed one.
    QCOMPARE(m_document->undoStack()->count(), 1);

    m_actions->undoAction()->trigger();
    QCOMPARE(target->text(), before);
    QCOMPARE(m_document->row(key)->target, before);
    QVERIFY(!m_document->isModified());
    QCOMPARE(m_document->undoStack()->count(), 1);

    m_actions->redoAction()->trigger();
    QCOMPARE(target->text(), after);
    QVERIFY(m_document->isModified());

    QVERIFY(m_actions->saveAction()->isEnabled());
    m_actions->saveAction()->trigger();
    QVERIFY(m_prompter.errors.isEmpty());
    QVERIFY(!m_document->isModified());
    QVERIFY(!m_actions->saveAction()->isEnabled());

    StoreResult<std::shared_ptr<SqlDirectoryStore>> fresh = SqlDirectoryStore::open(m_path);
    QVERIFY2(fresh.ok(), qPrintable(fresh.error().message));
    const StoreResult<Row> saved = fresh.value()->row(key);
    QVERIFY(saved.ok());
    QCOMPARE(saved.value().target, after);
    QCOMPARE(saved.value().category, QStringLiteral("weather"));
    // The editor shows the timestamp the store wrote.
    QVERIFY(saved.value().updatedAt != QStringLiteral("2026-01-02T03:04:05.678Z"));
}

void TestRowEditorPanel::typingInContentKeepsTheCursor()
{
    const QString key = QStringLiteral("ECHO_BACK");
    m_panel->showRow(key);
    auto *content = field<QPlainTextEdit>(QStringLiteral("content"));
    const QString original = content->toPlainText();
    const int insertAt = int(original.indexOf(QStringLiteral("echo"))) + 4;
    QTextCursor cursor = content->textCursor();
    cursor.setPosition(insertAt);
    content->setTextCursor(cursor);
    content->setFocus();

    QTest::keyClicks(content, QStringLiteral(" twice"));
    // Each keystroke went through the document and back without moving the cursor.
    QCOMPARE(content->textCursor().position(), insertAt + 6);
    QString expected = original;
    expected.insert(insertAt, QStringLiteral(" twice"));
    QCOMPARE(m_document->row(key)->content, expected);

    m_document->undoStack()->undo();
    QCOMPARE(content->toPlainText(), original);
    // Only the inserted words were taken out, so the cursor sits where they began.
    QCOMPARE(content->textCursor().position(), insertAt);
}

void TestRowEditorPanel::undoShortcutInAFieldUndoesTheDocument()
{
    const QString key = QStringLiteral("NOW");
    m_panel->showRow(key);
    auto *category = field<QLineEdit>(QStringLiteral("category"));
    category->setFocus();
    category->end(false);
    QTest::keyClicks(category, QStringLiteral("zone"));
    QCOMPARE(m_document->row(key)->category, QStringLiteral("timezone"));

    // Ctrl+Z in the field reaches the window's Undo action, not QLineEdit's own history.
    QTest::keySequence(category, QKeySequence::Undo);
    QCOMPARE(m_document->row(key)->category, QStringLiteral("time"));
    QCOMPARE(category->text(), QStringLiteral("time"));
    QCOMPARE(m_document->undoStack()->index(), 0);

    QTest::keyClick(category, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(m_document->row(key)->category, QStringLiteral("timezone"));
    QCOMPARE(category->text(), QStringLiteral("timezone"));
}

void TestRowEditorPanel::editingKeepsCrLfLineEndsAndNonBreakingSpaces()
{
    // Rows exported from elsewhere may carry "\r\n" and U+00A0; showing and editing one
    // line must not rewrite the others.
    const QString key = QStringLiteral("NOW");
    const QString stored = QStringLiteral("# WHAT: the\u00a0time\r\n# ARGS: none\r\n[]");
    m_document->setField(key, QStringLiteral("content"), stored);
    m_document->setField(key, QStringLiteral("input_schema"), QStringLiteral("{\r\n}"));
    m_panel->showRow(QStringLiteral("TRIAGE"));
    m_panel->showRow(key);
    auto *content = field<QPlainTextEdit>(QStringLiteral("content"));
    QCOMPARE(content->document()->blockCount(), 3);

    content->moveCursor(QTextCursor::End);
    content->setFocus();
    QTest::keyClicks(content, QStringLiteral("x"));
    QCOMPARE(m_document->row(key)->content, stored + QStringLiteral("x"));

    auto *schema = field<JsonFieldEdit>(QStringLiteral("input_schema"));
    schema->editor()->moveCursor(QTextCursor::End);
    schema->editor()->setFocus();
    QTest::keyClicks(schema->editor(), QStringLiteral(" "));
    QCOMPARE(m_document->row(key)->inputSchema, QStringLiteral("{\r\n} "));
}

void TestRowEditorPanel::checkboxesAndSeqEditTheRow()
{
    const QString key = QStringLiteral("NOW");
    m_panel->showRow(key);
    auto *enabled = field<QCheckBox>(QStringLiteral("enabled"));
    QVERIFY(enabled->isChecked());
    QTest::mouseClick(enabled, Qt::LeftButton);
    QCOMPARE(m_document->row(key)->enabled, false);
    m_document->undoStack()->undo();
    QVERIFY(enabled->isChecked());
    QCOMPARE(m_document->row(key)->enabled, true);

    auto *seqEdit = field<NullableIntEdit>(QStringLiteral("seq"));
    QCheckBox *seqSet = seqEdit->setBox();
    QSpinBox *seq = seqEdit->spinBox();
    QVERIFY(!seqSet->isChecked());
    QVERIFY(!seq->isEnabled());
    QTest::mouseClick(seqSet, Qt::LeftButton);
    QVERIFY(seq->isEnabled());
    QCOMPARE(m_document->row(key)->seq, std::optional<qint64>(0));
    seq->setValue(7);
    QCOMPARE(m_document->row(key)->seq, std::optional<qint64>(7));
    QTest::mouseClick(seqSet, Qt::LeftButton);
    QCOMPARE(m_document->row(key)->seq, std::nullopt);

    auto *rank = field<QSpinBox>(QStringLiteral("planner_rank"));
    QCOMPARE(rank->value(), 100);
    rank->setValue(5);
    QCOMPARE(m_document->row(key)->plannerRank, 5);
}

void TestRowEditorPanel::typeComboOffersTheFourTypes()
{
    const QString key = QStringLiteral("TRIAGE");
    m_panel->showRow(key);
    auto *type = field<QComboBox>(QStringLiteral("type"));
    QStringList offered;
    for (int i = 0; i < type->count(); ++i)
        offered.append(type->itemData(i).toString());
    QCOMPARE(offered, QStringList({QStringLiteral("fn"), QStringLiteral("http"), QStringLiteral("agent"),
                                   QStringLiteral("flow")}));
    QCOMPARE(type->currentData().toString(), QStringLiteral("agent"));

    type->setFocus();
    QTest::keyClick(type, Qt::Key_Down); // agent → flow, as a user would pick it
    QCOMPARE(m_document->row(key)->type, QStringLiteral("flow"));
    m_document->undoStack()->undo();
    QCOMPARE(type->currentData().toString(), QStringLiteral("agent"));
}

void TestRowEditorPanel::jsonFieldsShowParseErrorsAndValidatorProblems()
{
    const QString key = QStringLiteral("NOW");
    m_panel->showRow(key);
    auto *schema = field<JsonFieldEdit>(QStringLiteral("input_schema"));
    QVERIFY(schema->message().isEmpty());

    schema->editor()->setFocus();
    QTest::keyClicks(schema->editor(), QStringLiteral("[1,"));
    QTest::keyClick(schema->editor(), Qt::Key_Return);
    QTest::keyClicks(schema->editor(), QStringLiteral(" 2 x]"));
    QCOMPARE(m_document->row(key)->inputSchema, QStringLiteral("[1,\n 2 x]"));
    QVERIFY2(schema->message().startsWith(QStringLiteral("line 2, column 5")), qPrintable(schema->message()));
    const QList<QTextEdit::ExtraSelection> marks = schema->editor()->extraSelections();
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.first().cursor.selectedText(), QStringLiteral("x"));

    // Valid JSON of the wrong shape: the engine's validator says so under the same field.
    schema->editor()->selectAll();
    QTest::keyClicks(schema->editor(), QStringLiteral("[1]"));
    QCOMPARE(m_document->row(key)->inputSchema, QStringLiteral("[1]"));
    QCOMPARE(schema->errorOffset(), -1);
    QVERIFY2(schema->message().contains(QStringLiteral("JSON Schema object")), qPrintable(schema->message()));

    auto *examples = field<JsonFieldEdit>(QStringLiteral("examples"));
    examples->editor()->setFocus();
    QTest::keyClicks(examples->editor(), QStringLiteral("[\"a\", 2]"));
    QVERIFY2(examples->message().contains(QStringLiteral("examples[1]")), qPrintable(examples->message()));
}

void TestRowEditorPanel::newRowKeyIsEditableAndRenameFollowsUndo()
{
    const QString created = m_document->createRow(QStringLiteral("fn"));
    m_panel->showRow(created);
    auto *key = field<QLineEdit>(QStringLiteral("key"));
    QCOMPARE(key->text(), created);
    QVERIFY(!key->isReadOnly());

    QSignalSpy moved(m_panel, &RowEditorPanel::shownKeyChanged);
    key->setFocus();
    key->selectAll();
    QTest::keyClicks(key, QStringLiteral("MY_TOOL"));
    QVERIFY(!m_document->contains(QStringLiteral("MY_TOOL"))); // renamed on Return, not per key
    QTest::keyClick(key, Qt::Key_Return);
    QVERIFY(m_document->contains(QStringLiteral("MY_TOOL")));
    QVERIFY(!m_document->contains(created));
    QCOMPARE(m_panel->key(), QStringLiteral("MY_TOOL"));
    QCOMPARE(moved.size(), 1);
    QCOMPARE(moved.first().first().toString(), QStringLiteral("MY_TOOL"));

    m_document->undoStack()->undo();
    QCOMPARE(m_panel->key(), created);
    QCOMPARE(key->text(), created);
    m_document->undoStack()->redo();
    QCOMPARE(m_panel->key(), QStringLiteral("MY_TOOL"));

    // A key that is taken is refused and said so; the row keeps its name.
    key->setFocus();
    key->selectAll();
    QTest::keyClicks(key, QStringLiteral("NOW"));
    QTest::keyClick(key, Qt::Key_Return);
    QVERIFY(m_document->contains(QStringLiteral("MY_TOOL")));
    auto problems = m_panel->findChildren<QLabel *>();
    const bool said = std::any_of(problems.cbegin(), problems.cend(), [](QLabel *label) {
        return label->isVisible() && label->text().contains(QStringLiteral("already in use"));
    });
    QVERIFY(said);
}

void TestRowEditorPanel::storedRowKeyIsReadOnly()
{
    m_panel->showRow(QStringLiteral("NOW"));
    QVERIFY(field<QLineEdit>(QStringLiteral("key"))->isReadOnly());
}

void TestRowEditorPanel::deletedRowShowsThePlaceholderUntilUndone()
{
    m_panel->showRow(QStringLiteral("TRIAGE"));
    auto *target = field<QLineEdit>(QStringLiteral("target"));
    QVERIFY(target->isVisible());
    m_document->deleteRows({QStringLiteral("TRIAGE")});
    QVERIFY(!target->isVisible());
    m_document->undoStack()->undo();
    QVERIFY(target->isVisible());
    QCOMPARE(target->text(), QStringLiteral("grok-4"));
}

void TestRowEditorPanel::lintFindingsAppearLiveOnTheirFields()
{
    LintController lint;
    lint.setRelintDelay(150); // the typing debounce the window uses
    lint.setDocument(m_document.get(), true);
    QSignalSpy finished(&lint, &LintController::finished);
    lint.lintAll();
    QVERIFY(finished.count() == 1 || finished.wait(5000));
    m_panel->setLintController(&lint);

    // A row with findings shows them at once, and marks the content's label.
    m_panel->showRow(QStringLiteral("TRIAGE"));
    RowFindingsView *findings = m_panel->findingsView();
    QVERIFY(findings->isVisible());
    QVERIFY(findings->count() > 0);
    QCOMPARE(findings->markOf(QStringLiteral("content")), QStringLiteral("error"));

    // A new row: typing a bad key and committing it brings H001 onto the key field.
    m_table->setFocus();
    const QString created = m_document->createRow(QStringLiteral("fn"));
    m_panel->showRow(created);
    auto *key = field<QLineEdit>(QStringLiteral("key"));
    key->setFocus();
    key->selectAll();
    QTest::keyClicks(key, QStringLiteral("bad_key"));
    QTest::keyClick(key, Qt::Key_Return);
    QCOMPARE(m_panel->key(), QStringLiteral("bad_key"));
    QTRY_COMPARE(findings->markOf(QStringLiteral("key")), QStringLiteral("error"));
    bool listed = false;
    for (int i = 0; i < findings->count(); ++i)
        listed = listed || findings->item(i)->text().startsWith(QLatin1String("H001"));
    QVERIFY(listed);

    // Activating a finding puts the cursor in its field.
    m_panel->focusField(QStringLiteral("target"));
    QTRY_COMPARE(QApplication::focusWidget(),
                 static_cast<QWidget *>(field<QLineEdit>(QStringLiteral("target"))));
}

QTEST_MAIN(TestRowEditorPanel)
#include "tst_roweditorpanel.moc"
