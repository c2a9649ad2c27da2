#include "tests/views/viewtestsupport.h"
#include "views/shell/directoryopener.h"

#include <QFile>

// First start, new files and refusals.
class TestDirectoryOpener : public QObject
{
    Q_OBJECT

private slots:
    void firstStartCreatesTheFolderAndTheSampleRows();
    void existingDefaultIsOpenedAsItIs();
    void createRefusesAnExistingFile();
    void createWithoutSamplesIsEmpty();
    void openRefusesAFileThatIsNotADirectory();

private:
    static QStringList keys(DirectoryStore &store);
};

QStringList TestDirectoryOpener::keys(DirectoryStore &store)
{
    QStringList result;
    store.scanSummaries([&result](const RowSummary &summary) { result.append(summary.key); });
    return result;
}

void TestDirectoryOpener::firstStartCreatesTheFolderAndTheSampleRows()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("data/capdesk/directory.db"));
    DirectoryOpener::Opened store = DirectoryOpener::openDefault(path);
    QVERIFY2(store.ok(), qPrintable(store.error().message));
    QVERIFY(QFile::exists(path));
    const QStringList found = keys(*store.value().store);
    QVERIFY(found.size() >= 10);
    QVERIFY(found.contains(QStringLiteral("NOW")));
}

void TestDirectoryOpener::existingDefaultIsOpenedAsItIs()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("directory.db"));
    QVERIFY(openStoreWithRows(
        path, {makeRow(QStringLiteral("ONLY_ME"), QStringLiteral("fn"), QStringLiteral("echo"), QString())}));
    DirectoryOpener::Opened store = DirectoryOpener::openDefault(path);
    QVERIFY(store.ok());
    QCOMPARE(keys(*store.value().store), QStringList{QStringLiteral("ONLY_ME")});
}

void TestDirectoryOpener::createRefusesAnExistingFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("keep me");
    file.close();
    DirectoryOpener::Opened store = DirectoryOpener::create(path, true);
    QVERIFY(!store.ok());
    QCOMPARE(store.error().kind, StoreError::Kind::AlreadyExists);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("keep me"));
}

void TestDirectoryOpener::createWithoutSamplesIsEmpty()
{
    QTemporaryDir dir;
    DirectoryOpener::Opened store = DirectoryOpener::create(dir.filePath(QStringLiteral("new/d.db")), false);
    QVERIFY2(store.ok(), qPrintable(store.error().message));
    QVERIFY(keys(*store.value().store).isEmpty());
}

void TestDirectoryOpener::openRefusesAFileThatIsNotADirectory()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.db"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("these are my notes, not a database");
    file.close();
    DirectoryOpener::Opened store = DirectoryOpener::open(path);
    QVERIFY(!store.ok());
    QCOMPARE(store.error().kind, StoreError::Kind::NotDirectory);
    QVERIFY(store.error().message.contains(path));
}

QTEST_MAIN(TestDirectoryOpener)
#include "tst_directoryopener.moc"
