#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/views/viewtestsupport.h"
#include "views/shell/editactions.h"
#include "views/table/directorytableview.h"

#include <QAction>
#include <QMenu>
#include <QSignalSpy>
#include <QUndoStack>

// The Edit actions on a real table selection, with confirmations answered by FakePrompter.
class TestEditActions : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void deleteAsksNamingTheKeysAndNoKeepsThem();
    void deleteYesRemovesAndUndoRestores();
    void deleteKeyInTheTableAsksToo();
    void bulkDisableAndEnableIsOneStep();
    void newRowMenuCreatesTheChosenType();
    void duplicateCopiesTheSelectedRow();
    void saveFailureShowsTheStoreMessageAndKeepsEverything();
    void revertAsksFirst();
    void actionsFollowSelectionAndModification();

private:
    void select(const QStringList &keys);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    FakePrompter m_prompter;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<DirectoryTableView> m_table;
    std::unique_ptr<EditActions> m_actions;
};

void TestEditActions::init()
{
    m_prompter = FakePrompter();
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("d.db"));
    auto store = openStoreWithRows(m_path, sampleRows());
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_table = std::make_unique<DirectoryTableView>();
    m_actions = std::make_unique<EditActions>(m_table.get(), m_prompter);
    m_table->setDocument(m_document.get());
    m_actions->setDocument(m_document.get());
    m_table->resize(800, 400);
    m_table->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_table.get()));
}

void TestEditActions::cleanup()
{
    m_actions.reset();
    m_table.reset();
    m_document.reset();
    m_dir.reset();
}

void TestEditActions::select(const QStringList &keys)
{
    m_table->clearSelection();
    DirectoryTableModel *model = m_document->tableModel();
    for (const QString &key : keys) {
        const int row = model->rowOfKey(key);
        QVERIFY(row >= 0);
        m_table->selectionModel()->select(model->index(row, 0),
                                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

void TestEditActions::deleteAsksNamingTheKeysAndNoKeepsThem()
{
    select({QStringLiteral("NOW"), QStringLiteral("TRIAGE")});
    m_prompter.deleteAnswer = false;
    m_actions->deleteAction()->trigger();
    QCOMPARE(m_prompter.deleteQuestions.size(), 1);
    QCOMPARE(m_prompter.deleteQuestions.first(),
             QStringList({QStringLiteral("NOW"), QStringLiteral("TRIAGE")}));
    QVERIFY(m_document->contains(QStringLiteral("NOW")));
    QVERIFY(m_document->contains(QStringLiteral("TRIAGE")));
    QCOMPARE(m_document->undoStack()->count(), 0);
}

void TestEditActions::deleteYesRemovesAndUndoRestores()
{
    select({QStringLiteral("NOW"), QStringLiteral("TRIAGE")});
    m_prompter.deleteAnswer = true;
    m_actions->deleteAction()->trigger();
    QVERIFY(!m_document->contains(QStringLiteral("NOW")));
    QVERIFY(!m_document->contains(QStringLiteral("TRIAGE")));
    QCOMPARE(m_document->tableModel()->totalRows(), 3);
    QCOMPARE(m_document->undoStack()->count(), 1);

    m_actions->undoAction()->trigger();
    QVERIFY(m_document->contains(QStringLiteral("NOW")));
    QVERIFY(m_document->contains(QStringLiteral("TRIAGE")));
    QVERIFY(!m_document->isModified());
}

void TestEditActions::deleteKeyInTheTableAsksToo()
{
    m_table->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_table.get()));
    m_table->setFocus();
    select({QStringLiteral("ECHO_BACK")});
    m_prompter.deleteAnswer = true;
    QTest::keyClick(m_table.get(), Qt::Key_Delete);
    QCOMPARE(m_prompter.deleteQuestions, QList<QStringList>{QStringList{QStringLiteral("ECHO_BACK")}});
    QVERIFY(!m_document->contains(QStringLiteral("ECHO_BACK")));
}

void TestEditActions::bulkDisableAndEnableIsOneStep()
{
    const QStringList keys = {QStringLiteral("ECHO_BACK"), QStringLiteral("MORNING"), QStringLiteral("NOW")};
    select(keys);
    m_actions->disableAction()->trigger();
    for (const QString &key : keys)
        QCOMPARE(m_document->row(key)->enabled, false);
    QCOMPARE(m_document->row(QStringLiteral("TRIAGE"))->enabled, true);
    QCOMPARE(m_document->undoStack()->count(), 1);

    m_actions->enableAction()->trigger();
    for (const QString &key : keys)
        QCOMPARE(m_document->row(key)->enabled, true);
    QVERIFY(!m_document->isModified());

    m_actions->undoAction()->trigger();
    QCOMPARE(m_document->row(QStringLiteral("MORNING"))->enabled, false);
}

void TestEditActions::newRowMenuCreatesTheChosenType()
{
    QSignalSpy created(m_actions.get(), &EditActions::rowCreated);
    QAction *http = m_actions->newRowMenu()->findChild<QAction *>(QStringLiteral("newRow_http"));
    QVERIFY(http);
    http->trigger();
    QCOMPARE(created.size(), 1);
    const QString key = created.first().first().toString();
    QVERIFY(key.startsWith(QStringLiteral("NEW_HTTP")));
    QCOMPARE(m_document->row(key)->type, QStringLiteral("http"));
    QVERIFY(!m_document->isStored(key));
}

void TestEditActions::duplicateCopiesTheSelectedRow()
{
    select({QStringLiteral("WEATHER_NOW")});
    QSignalSpy created(m_actions.get(), &EditActions::rowCreated);
    m_actions->duplicateAction()->trigger();
    QCOMPARE(created.size(), 1);
    const std::optional<Row> copy = m_document->row(created.first().first().toString());
    QVERIFY(copy);
    QCOMPARE(copy->target, QStringLiteral("GET https://api.example.com/weather/$1"));
    QVERIFY(copy->key != QStringLiteral("WEATHER_NOW"));
}

void TestEditActions::saveFailureShowsTheStoreMessageAndKeepsEverything()
{
    // The store refuses rows whose JSON columns do not parse.
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("input_schema"), QStringLiteral("{broken"));
    m_document->setField(QStringLiteral("ECHO_BACK"), QStringLiteral("target"), QStringLiteral("upper"));
    QVERIFY(m_actions->saveAction()->isEnabled());
    m_actions->saveAction()->trigger();

    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(QStringLiteral("input_schema")),
             qPrintable(m_prompter.errors.first()));
    QVERIFY(m_document->isModified());
    QCOMPARE(m_document->modifiedKeys().size(), 2);
    QCOMPARE(m_document->undoStack()->count(), 2);
    // All or nothing: the valid edit was not written either.
    auto fresh = SqlDirectoryStore::open(m_path);
    QVERIFY(fresh.ok());
    QCOMPARE(fresh.value()->row(QStringLiteral("ECHO_BACK")).value().target, QStringLiteral("echo"));

    // Fixed, it saves.
    m_document->undoStack()->undo();
    m_document->undoStack()->undo();
    m_document->setField(QStringLiteral("ECHO_BACK"), QStringLiteral("target"), QStringLiteral("upper"));
    m_actions->saveAction()->trigger();
    QCOMPARE(m_prompter.errors.size(), 1);
    QCOMPARE(fresh.value()->row(QStringLiteral("ECHO_BACK")).value().target, QStringLiteral("upper"));
}

void TestEditActions::revertAsksFirst()
{
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    m_prompter.revertAnswer = false;
    m_actions->revertAction()->trigger();
    QCOMPARE(m_prompter.revertQuestions, 1);
    QVERIFY(m_document->isModified());

    m_prompter.revertAnswer = true;
    m_actions->revertAction()->trigger();
    QVERIFY(!m_document->isModified());
    QCOMPARE(m_document->row(QStringLiteral("NOW"))->target, QStringLiteral("now"));
}

void TestEditActions::actionsFollowSelectionAndModification()
{
    m_table->clearSelection();
    QVERIFY(!m_actions->deleteAction()->isEnabled());
    QVERIFY(!m_actions->duplicateAction()->isEnabled());
    QVERIFY(!m_actions->saveAction()->isEnabled());
    QVERIFY(!m_actions->undoAction()->isEnabled());
    QVERIFY(m_actions->newRowAction()->isEnabled());

    select({QStringLiteral("NOW")});
    QVERIFY(m_actions->deleteAction()->isEnabled());
    QVERIFY(m_actions->enableAction()->isEnabled());

    m_document->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    QVERIFY(m_actions->saveAction()->isEnabled());
    QVERIFY(m_actions->revertAction()->isEnabled());
    QVERIFY(m_actions->undoAction()->isEnabled());
    QVERIFY(m_actions->undoAction()->text().contains(QStringLiteral("target")));

    m_actions->setDocument(nullptr);
    QVERIFY(!m_actions->newRowAction()->isEnabled());
    QVERIFY(!m_actions->saveAction()->isEnabled());
}

QTEST_MAIN(TestEditActions)
#include "tst_editactions.moc"
