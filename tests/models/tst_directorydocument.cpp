#include "dispatch/store/sqldirectorystore.h"
#include "models/categorycountmodel.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

Row makeRow(const QString &key, const QString &category)
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.category = category;
    row.content =
        QStringLiteral("# WHAT: Echoes its text.\n# WHEN_TO_USE: a test needs a row.\n# ARGS: $1=text\n"
                       "# EX: [%1]a[/%1]\n# OUTPUT: the text.")
            .arg(key);
    row.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    return row;
}

} // namespace

class TestDirectoryDocument : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void fieldEditsAreDraftsUntilSaved();
    void typingInOneFieldMergesIntoOneUndoStep();
    void undoAfterSaveBecomesAnUnsavedChange();
    void createDuplicateRenameDelete();
    void bulkEnableIsOneUndoStep();
    void revertIsUndoable();
    void failedSaveKeepsDraftsAndHistory();
    void categoryCountsFollowEdits();
    void saveRefusesRowsChangedMeanwhile();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::unique_ptr<DirectoryDocument> m_doc;
};

void TestDirectoryDocument::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = SqlDirectoryStore::open(m_dir->filePath(QStringLiteral("doc.db")));
    QVERIFY(opened.ok());
    m_store = opened.value();
    QVERIFY(!m_store
                 ->importRows({makeRow(QStringLiteral("ALPHA"), QStringLiteral("a")),
                               makeRow(QStringLiteral("BETA"), QStringLiteral("b")),
                               makeRow(QStringLiteral("GAMMA"), QStringLiteral("b"))})
                 .isError());
    m_doc = std::make_unique<DirectoryDocument>(m_store);
    QVERIFY(!m_doc->load().isError());
}

void TestDirectoryDocument::cleanup()
{
    m_doc.reset();
    m_store.reset();
    m_dir.reset();
}

void TestDirectoryDocument::fieldEditsAreDraftsUntilSaved()
{
    QAbstractItemModelTester tester(m_doc->tableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy modified(m_doc.get(), &DirectoryDocument::modifiedChanged);
    m_doc->setField(QStringLiteral("BETA"), QStringLiteral("target"), QStringLiteral("upper"));
    QVERIFY(m_doc->isModified());
    QCOMPARE(modified.size(), 1);
    QCOMPARE(m_doc->row(QStringLiteral("BETA"))->target, QStringLiteral("upper"));
    QCOMPARE(m_store->row(QStringLiteral("BETA")).value().target, QStringLiteral("echo"));
    const int row = m_doc->tableModel()->rowOfKey(QStringLiteral("BETA"));
    QCOMPARE(m_doc->tableModel()->index(row, DirectoryTableModel::TargetColumn).data().toString(),
             QStringLiteral("upper"));
    QVERIFY(m_doc->tableModel()->index(row, 0).data(DirectoryTableModel::ModifiedRole).toBool());

    QVERIFY(!m_doc->save().isError());
    QVERIFY(!m_doc->isModified());
    QCOMPARE(m_store->row(QStringLiteral("BETA")).value().target, QStringLiteral("upper"));
    QVERIFY(!m_doc->tableModel()->index(row, 0).data(DirectoryTableModel::ModifiedRole).toBool());
    QVERIFY(
        m_doc->tableModel()->index(row, DirectoryTableModel::UpdatedColumn).data(Qt::ToolTipRole).toString()
        > QStringLiteral("2026-01-01T00:00:00.000Z"));
}

void TestDirectoryDocument::typingInOneFieldMergesIntoOneUndoStep()
{
    for (const QString &text : {QStringLiteral("u"), QStringLiteral("up"), QStringLiteral("upp")})
        m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("target"), text);
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("category"), QStringLiteral("z"));
    QCOMPARE(m_doc->undoStack()->count(), 2);
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->category, QStringLiteral("a"));
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("upp"));
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("echo"));
    QVERIFY(!m_doc->isModified());
    m_doc->undoStack()->redo();
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("upp"));
}

void TestDirectoryDocument::undoAfterSaveBecomesAnUnsavedChange()
{
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("target"), QStringLiteral("lower"));
    QVERIFY(!m_doc->save().isError());
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->isModified());
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("echo"));
    QCOMPARE(m_store->row(QStringLiteral("ALPHA")).value().target, QStringLiteral("lower"));
    m_doc->undoStack()->redo();
    QVERIFY(!m_doc->isModified());
}

void TestDirectoryDocument::createDuplicateRenameDelete()
{
    const QString created = m_doc->createRow(QStringLiteral("http"));
    QCOMPARE(created, QStringLiteral("NEW_HTTP"));
    QVERIFY(!m_doc->isStored(created));
    QVERIFY(m_doc->row(created)->content.contains(QStringLiteral("# EX: [NEW_HTTP][/NEW_HTTP]")));
    m_doc->renameRow(created, QStringLiteral("WEATHER_NOW"));
    QVERIFY(!m_doc->contains(created));
    QVERIFY(m_doc->row(QStringLiteral("WEATHER_NOW"))
                ->content.contains(QStringLiteral("[WEATHER_NOW][/WEATHER_NOW]")));

    const QString copy = m_doc->duplicateRow(QStringLiteral("ALPHA"));
    QCOMPARE(copy, QStringLiteral("ALPHA_COPY"));
    QVERIFY(m_doc->row(copy)->content.contains(QStringLiteral("[ALPHA_COPY]a[/ALPHA_COPY]")));
    QCOMPARE(m_doc->duplicateRow(QStringLiteral("ALPHA")), QStringLiteral("ALPHA_COPY_2"));

    m_doc->deleteRows({QStringLiteral("BETA"), QStringLiteral("GAMMA")});
    QCOMPARE(m_doc->tableModel()->totalRows(), 4);
    m_doc->renameRow(QStringLiteral("ALPHA"), QStringLiteral("ALPHA_RENAMED"));
    QVERIFY(m_doc->contains(QStringLiteral("ALPHA"))); // stored keys do not change

    m_doc->setField(QStringLiteral("WEATHER_NOW"), QStringLiteral("target"),
                    QStringLiteral("GET https://example.com/"));
    m_doc->setField(
        QStringLiteral("WEATHER_NOW"), QStringLiteral("content"),
        QStringLiteral("# WHAT: The weather now.\n# WHEN_TO_USE: a test saves a new row.\n# ARGS: none\n"
                       "# EX: [WEATHER_NOW][/WEATHER_NOW]\n# OUTPUT: the upstream's JSON.\n"));
    QVERIFY2(!m_doc->save().isError(), "save");
    QCOMPARE(m_store->allRows().value().size(), 4);
    QVERIFY(m_store->row(QStringLiteral("WEATHER_NOW")).ok());
    QCOMPARE(m_store->row(QStringLiteral("BETA")).error().kind, StoreError::Kind::NotFound);
    QVERIFY(!m_store->row(QStringLiteral("WEATHER_NOW")).value().createdAt.isEmpty());
}

void TestDirectoryDocument::bulkEnableIsOneUndoStep()
{
    m_doc->setEnabled({QStringLiteral("ALPHA"), QStringLiteral("BETA"), QStringLiteral("GAMMA")}, false);
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QCOMPARE(m_doc->modifiedKeys().size(), 3);
    QVERIFY(!m_doc->row(QStringLiteral("GAMMA"))->enabled);
    m_doc->undoStack()->undo();
    QVERIFY(!m_doc->isModified());
    QVERIFY(m_doc->row(QStringLiteral("GAMMA"))->enabled);
}

void TestDirectoryDocument::revertIsUndoable()
{
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("target"), QStringLiteral("trim"));
    m_doc->deleteRows({QStringLiteral("BETA")});
    m_doc->revert();
    QVERIFY(!m_doc->isModified());
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("echo"));
    QVERIFY(m_doc->contains(QStringLiteral("BETA")));
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("trim"));
    QVERIFY(!m_doc->contains(QStringLiteral("BETA")));
}

void TestDirectoryDocument::failedSaveKeepsDraftsAndHistory()
{
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("target"), QStringLiteral("trim"));
    m_doc->setField(QStringLiteral("BETA"), QStringLiteral("input_schema"), QStringLiteral("{broken"));
    const StoreError error = m_doc->save();
    QVERIFY(error.isError());
    QVERIFY(error.message.contains(QStringLiteral("input_schema")));
    QCOMPARE(m_doc->modifiedKeys().size(), 2);
    QCOMPARE(m_doc->undoStack()->count(), 2);
    QCOMPARE(m_store->row(QStringLiteral("ALPHA")).value().target, QStringLiteral("echo"));
    m_doc->undoStack()->undo();
    QVERIFY(!m_doc->save().isError());
    QCOMPARE(m_store->row(QStringLiteral("ALPHA")).value().target, QStringLiteral("trim"));
}

void TestDirectoryDocument::categoryCountsFollowEdits()
{
    CategoryCountModel *categories = m_doc->categoryModel();
    QAbstractItemModelTester tester(categories, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto countOf = [categories](const QString &category) {
        for (int row = 1; row < categories->rowCount(); ++row) {
            const QModelIndex index = categories->index(row);
            if (index.data(CategoryCountModel::CategoryRole).toString() == category)
                return index.data(CategoryCountModel::CountRole).toInt();
        }
        return 0;
    };
    QCOMPARE(categories->index(0).data(CategoryCountModel::CountRole).toInt(), 3);
    QVERIFY(categories->index(0).data(CategoryCountModel::IsAllRole).toBool());
    QCOMPARE(countOf(QStringLiteral("b")), 2);
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("category"), QStringLiteral("b"));
    QCOMPARE(countOf(QStringLiteral("b")), 3);
    QCOMPARE(countOf(QStringLiteral("a")), 0);
}

void TestDirectoryDocument::saveRefusesRowsChangedMeanwhile()
{
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("category"), QStringLiteral("mine"));
    // Someone else (capdeskctl) changes the stored row after this document read it.
    QVERIFY(
        m_store
            ->patch(QStringLiteral("ALPHA"), QJsonObject{{QStringLiteral("target"), QStringLiteral("upper")}})
            .ok());
    const StoreError error = m_doc->save();
    QCOMPARE(error.kind, StoreError::Kind::Conflict);
    QVERIFY(m_doc->isRowModified(QStringLiteral("ALPHA")));
    QCOMPARE(m_store->row(QStringLiteral("ALPHA")).value().target, QStringLiteral("upper"));
    QCOMPARE(m_store->row(QStringLiteral("ALPHA")).value().category, QStringLiteral("a"));
}

QTEST_GUILESS_MAIN(TestDirectoryDocument)
#include "tst_directorydocument.moc"
