#include "models/directorydocument.h"
#include "tests/views/viewtestsupport.h"
#include "views/shell/unsavedchangesguard.h"

// Save / Discard / Cancel before a document is dropped; nothing is lost silently.
class TestUnsavedChangesGuard : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void unmodifiedDocumentIsDroppedWithoutAsking();
    void cancelKeepsTheDocument();
    void discardDropsWithoutWriting();
    void saveWritesThenDrops();
    void failedSaveKeepsTheDocumentAndSaysWhy();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    FakePrompter m_prompter;
    std::unique_ptr<DirectoryDocument> m_document;
};

void TestUnsavedChangesGuard::init()
{
    m_prompter = FakePrompter();
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("d.db"));
    auto store = openStoreWithRows(m_path, sampleRows());
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
}

void TestUnsavedChangesGuard::cleanup()
{
    m_document.reset();
    m_dir.reset();
}

void TestUnsavedChangesGuard::unmodifiedDocumentIsDroppedWithoutAsking()
{
    const UnsavedChangesGuard guard(m_prompter);
    QVERIFY(guard.mayDrop(m_document.get()));
    QVERIFY(guard.mayDrop(nullptr));
    QVERIFY(m_prompter.unsavedQuestions.isEmpty());
}

void TestUnsavedChangesGuard::cancelKeepsTheDocument()
{
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    m_prompter.unsavedAnswer = Prompter::UnsavedChoice::Cancel;
    QVERIFY(!UnsavedChangesGuard(m_prompter).mayDrop(m_document.get()));
    QCOMPARE(m_prompter.unsavedQuestions, QStringList{m_path});
    QVERIFY(m_document->isModified());
}

void TestUnsavedChangesGuard::discardDropsWithoutWriting()
{
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    m_prompter.unsavedAnswer = Prompter::UnsavedChoice::Discard;
    QVERIFY(UnsavedChangesGuard(m_prompter).mayDrop(m_document.get()));
    QCOMPARE(m_document->store().row(QStringLiteral("NOW")).value().target, QStringLiteral("now"));
}

void TestUnsavedChangesGuard::saveWritesThenDrops()
{
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("uuid"));
    m_prompter.unsavedAnswer = Prompter::UnsavedChoice::Save;
    QVERIFY(UnsavedChangesGuard(m_prompter).mayDrop(m_document.get()));
    auto fresh = SqlDirectoryStore::open(m_path);
    QVERIFY(fresh.ok());
    QCOMPARE(fresh.value()->row(QStringLiteral("NOW")).value().target, QStringLiteral("uuid"));
}

void TestUnsavedChangesGuard::failedSaveKeepsTheDocumentAndSaysWhy()
{
    m_document->setField(QStringLiteral("NOW"), QStringLiteral("examples"), QStringLiteral("[1"));
    m_prompter.unsavedAnswer = Prompter::UnsavedChoice::Save;
    QVERIFY(!UnsavedChangesGuard(m_prompter).mayDrop(m_document.get()));
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(QStringLiteral("examples")),
             qPrintable(m_prompter.errors.first()));
    QVERIFY(m_document->isModified());
}

QTEST_MAIN(TestUnsavedChangesGuard)
#include "tst_unsavedchangesguard.moc"
