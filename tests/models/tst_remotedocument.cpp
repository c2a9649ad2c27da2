#include "models/changefeedpoller.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/lintcontroller.h"
#include "models/networkpool.h"
#include "remote/remotedirectorystore.h"
#include "remote/serverconnection.h"
#include "tests/support/lintfixture.h"
#include "tests/support/minimalserver.h"

#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

// DirectoryDocument over a store with round trips (issue 12): it never calls the store on
// the GUI thread, asks the server once per row however many panels ask, answers keys from
// the summaries it holds, and saves in the background keeping what is typed meanwhile.
// Against MinimalServer, which records every request it gets.
class TestRemoteDocument : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void aRowIsFetchedOnceHoweverManyAsk();
    void aFreshRowCostsNoRequest();
    void aRowChangedSinceItWasReadIsFetchedAgain();
    void keysAreAnsweredFromTheSummaries();
    void saveRunsInTheBackgroundAndKeepsLaterEdits();
    void aConflictIsReportedWithTheirRow();
    void bulkEditsFetchTheMissingRowsInOneGo();
    void answersForADroppedDocumentAreIgnored();
    void aPlainServerIsPolledAsItsKindSuggests();
    void theProfilesIntervalIsKept();
    void anIntervalSetByHandOutlastsTheFirstPoll();
    void lintAllListsTheDirectoryOnce();

private:
    Row seeded(const QString &key, const QString &category) const;
    void openDocument(int pollIntervalMs = 0);
    std::optional<Row> loaded(const QString &key);
    int gets(const QString &key) const;

    const QByteArray m_key = QByteArrayLiteral("remote-document-owner-key-7");
    std::unique_ptr<MinimalServer> m_server;
    std::unique_ptr<DirectoryDocument> m_doc;
};

Row TestRemoteDocument::seeded(const QString &key, const QString &category) const
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.category = category;
    row.content = QStringLiteral("# WHAT: %1 echoes.\n").arg(key);
    return row;
}

void TestRemoteDocument::init()
{
    m_server = std::make_unique<MinimalServer>(m_key);
    QString error;
    QVERIFY2(m_server->listen(&error), qPrintable(error));
    RemoteDirectoryStore seeder(
        std::make_shared<ServerConnection>(ServerEndpoint{m_server->baseUrl(), QString::fromLatin1(m_key)}));
    for (const QString &key : {QStringLiteral("ALPHA"), QStringLiteral("BETA"), QStringLiteral("GAMMA")})
        QVERIFY(seeder.create(seeded(key, QStringLiteral("letters"))).ok());
    openDocument();
    m_server->clearRequests();
}

void TestRemoteDocument::cleanup()
{
    m_doc.reset();
    m_server.reset();
}

void TestRemoteDocument::openDocument(int pollIntervalMs)
{
    ServerEndpoint endpoint{m_server->baseUrl(), QString::fromLatin1(m_key)};
    endpoint.changePollIntervalMs = pollIntervalMs;
    auto store = std::make_shared<RemoteDirectoryStore>(std::make_shared<ServerConnection>(endpoint));
    m_doc = std::make_unique<DirectoryDocument>(store);
    QSignalSpy loaded(m_doc->tableModel(), &DirectoryTableModel::loadFinished);
    QVERIFY(!m_doc->loadProgressively().isError());
    // Nothing is read on this thread: the table fills when the pages arrive.
    QCOMPARE(m_doc->tableModel()->totalRows(), 0);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.first().first().toString(), QString());
    QCOMPARE(m_doc->tableModel()->totalRows(), 3);
}

std::optional<Row> TestRemoteDocument::loaded(const QString &key)
{
    QSignalSpy changed(m_doc.get(), &DirectoryDocument::rowChanged);
    for (int waits = 0; !m_doc->row(key) && m_doc->isLoading(key) && waits < 100; ++waits)
        changed.wait(100);
    return m_doc->row(key);
}

int TestRemoteDocument::gets(const QString &key) const
{
    return int(m_server->requests("GET", QStringLiteral("/api/directory/") + key).size());
}

void TestRemoteDocument::aRowIsFetchedOnceHoweverManyAsk()
{
    // Editor, shape, contract, flow and lint all ask for the selected row at once.
    for (int ask = 0; ask < 5; ++ask) {
        QVERIFY(!m_doc->row(QStringLiteral("ALPHA")));
        QVERIFY(m_doc->isLoading(QStringLiteral("ALPHA")));
    }
    QCOMPARE(m_doc->summary(QStringLiteral("ALPHA"))->category, QStringLiteral("letters"));
    QSignalSpy changed(m_doc.get(), &DirectoryDocument::rowChanged);
    QVERIFY(changed.wait(10000));
    QCOMPARE(changed.first().first().toString(), QStringLiteral("ALPHA"));
    QVERIFY(!m_doc->isLoading(QStringLiteral("ALPHA")));
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->content, QStringLiteral("# WHAT: ALPHA echoes.\n"));
    QCOMPARE(gets(QStringLiteral("ALPHA")), 1);
    QCOMPARE(m_doc->readsInFlight(), 0);
}

void TestRemoteDocument::aFreshRowCostsNoRequest()
{
    QVERIFY(loaded(QStringLiteral("BETA")));
    QVERIFY(loaded(QStringLiteral("GAMMA")));
    m_server->clearRequests();
    for (int ask = 0; ask < 10; ++ask)
        QVERIFY(m_doc->row(QStringLiteral("BETA")));
    QVERIFY(!m_doc->isLoading(QStringLiteral("BETA")));
    QVERIFY(m_server->requests().isEmpty());
}

void TestRemoteDocument::aRowChangedSinceItWasReadIsFetchedAgain()
{
    QVERIFY(loaded(QStringLiteral("BETA")));
    m_server->changeBehindClients(QStringLiteral("BETA"),
                                  {{QStringLiteral("category"), QStringLiteral("theirs")}});
    // The summaries read again carry the new updated_at: the row read before is stale.
    QSignalSpy reloaded(m_doc->tableModel(), &DirectoryTableModel::loadFinished);
    QVERIFY(!m_doc->reload().isError());
    QVERIFY(reloaded.wait(10000));
    m_server->clearRequests();
    QVERIFY(!m_doc->row(QStringLiteral("BETA")));
    QCOMPARE(loaded(QStringLiteral("BETA"))->category, QStringLiteral("theirs"));
    QCOMPARE(gets(QStringLiteral("BETA")), 1);
}

void TestRemoteDocument::keysAreAnsweredFromTheSummaries()
{
    QVERIFY(m_doc->contains(QStringLiteral("GAMMA")));
    QVERIFY(m_doc->isStored(QStringLiteral("GAMMA")));
    QVERIFY(!m_doc->contains(QStringLiteral("DELTA")));
    QVERIFY(!m_doc->row(QStringLiteral("DELTA")));
    QVERIFY(!m_doc->isLoading(QStringLiteral("DELTA")));
    const QString created = m_doc->createRow(QStringLiteral("fn"));
    QCOMPARE(created, QStringLiteral("NEW_FN"));
    QVERIFY(!m_doc->isStored(created));
    QCOMPARE(m_doc->createRow(QStringLiteral("fn")), QStringLiteral("NEW_FN_2"));
    QVERIFY(m_server->requests().isEmpty());
}

void TestRemoteDocument::saveRunsInTheBackgroundAndKeepsLaterEdits()
{
    QVERIFY(loaded(QStringLiteral("ALPHA")));
    m_server->clearRequests();
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("category"), QStringLiteral("first"));
    QSignalSpy saved(m_doc.get(), &DirectoryDocument::saved);
    QVERIFY(!m_doc->save().isError());
    QVERIFY(m_doc->isSaving());
    QVERIFY(m_doc->isRowSaving(QStringLiteral("ALPHA")));
    // Typed while the PATCH is on its way.
    m_doc->setField(QStringLiteral("ALPHA"), QStringLiteral("target"), QStringLiteral("later"));
    QVERIFY(saved.wait(10000));
    QVERIFY(!m_doc->isSaving());
    QVERIFY(m_doc->isRowModified(QStringLiteral("ALPHA")));
    QCOMPARE(m_doc->row(QStringLiteral("ALPHA"))->target, QStringLiteral("later"));
    QCOMPARE(m_doc->baseRow(QStringLiteral("ALPHA"))->category, QStringLiteral("first"));
    QCOMPARE(m_server->row(QStringLiteral("ALPHA")).value(QStringLiteral("category")).toString(),
             QStringLiteral("first"));
    QCOMPARE(m_server->row(QStringLiteral("ALPHA")).value(QStringLiteral("target")).toString(),
             QStringLiteral("echo"));
    // A server without If-Match: one re-read before the write, and the write itself.
    QCOMPARE(m_server->requests("PATCH").size(), 1);
    QCOMPARE(gets(QStringLiteral("ALPHA")), 1);

    QVERIFY(!m_doc->save().isError());
    QVERIFY(saved.wait(10000));
    QVERIFY(!m_doc->isModified());
    QCOMPARE(m_server->row(QStringLiteral("ALPHA")).value(QStringLiteral("target")).toString(),
             QStringLiteral("later"));
    QCOMPARE(m_doc->tableModel()->summary(QStringLiteral("ALPHA"))->target, QStringLiteral("later"));
}

void TestRemoteDocument::aConflictIsReportedWithTheirRow()
{
    QVERIFY(loaded(QStringLiteral("GAMMA")));
    m_doc->setField(QStringLiteral("GAMMA"), QStringLiteral("category"), QStringLiteral("mine"));
    m_server->changeBehindClients(QStringLiteral("GAMMA"),
                                  {{QStringLiteral("target"), QStringLiteral("now")}});
    QSignalSpy failed(m_doc.get(), &DirectoryDocument::saveFailed);
    QVERIFY(!m_doc->save().isError());
    QVERIFY(failed.wait(10000));
    const StoreError error = failed.first().first().value<StoreError>();
    QCOMPARE(error.kind, StoreError::Kind::Conflict);
    QCOMPARE(error.details.first().toObject().value(QStringLiteral("target")).toString(),
             QStringLiteral("now"));
    QVERIFY(m_doc->isRowModified(QStringLiteral("GAMMA")));
    QCOMPARE(m_doc->row(QStringLiteral("GAMMA"))->category, QStringLiteral("mine"));
    QVERIFY(m_server->requests("PATCH").isEmpty());
}

void TestRemoteDocument::bulkEditsFetchTheMissingRowsInOneGo()
{
    QVERIFY(loaded(QStringLiteral("ALPHA")));
    m_server->clearRequests();
    const QStringList keys{QStringLiteral("ALPHA"), QStringLiteral("BETA"), QStringLiteral("GAMMA")};
    QSignalSpy modified(m_doc.get(), &DirectoryDocument::modifiedChanged);
    m_doc->setEnabled(keys, false);
    QVERIFY(modified.wait(10000));
    for (const QString &key : keys)
        QVERIFY(!m_doc->row(key)->enabled);
    QCOMPARE(gets(QStringLiteral("ALPHA")), 0);
    QCOMPARE(gets(QStringLiteral("BETA")), 1);
    QCOMPARE(gets(QStringLiteral("GAMMA")), 1);
    // One undo step for the whole selection, as on a file.
    m_doc->undoStack()->undo();
    for (const QString &key : keys)
        QVERIFY(m_doc->row(key)->enabled);
    QVERIFY(!m_doc->isModified());
}

void TestRemoteDocument::answersForADroppedDocumentAreIgnored()
{
    QVERIFY(!m_doc->row(QStringLiteral("BETA")));
    QVERIFY(m_doc->isLoading(QStringLiteral("BETA")));
    m_doc.reset();
    // The answer lands on a document that is gone: nothing to crash on.
    QVERIFY(NetworkPool::instance().waitForDone(10000));
    QCoreApplication::processEvents();
    // Sent if it had started, dropped unsent if it was still queued; never twice.
    QVERIFY(m_server->requests("GET", QStringLiteral("/api/directory/BETA")).size() <= 1);
    openDocument();
    QVERIFY(loaded(QStringLiteral("BETA")));
}

void TestRemoteDocument::aPlainServerIsPolledAsItsKindSuggests()
{
    // Its kind is known once the first poll (the baseline) has met only a listing.
    QVERIFY(m_doc->changeFeed()->isRunning());
    QTRY_COMPARE(m_doc->changeFeed()->interval(), 60000);
}

void TestRemoteDocument::theProfilesIntervalIsKept()
{
    openDocument(20000);
    QCOMPARE(m_doc->changeFeed()->interval(), 20000);
    m_server->clearRequests();
    // A poll asked for while one is on its way is dropped: a second request means the
    // first answer has been taken in.
    QTRY_VERIFY((m_doc->changeFeed()->pollNow(),
                 m_server->requests("GET", QStringLiteral("/api/directory")).size() >= 2));
    QCOMPARE(m_doc->changeFeed()->interval(), 20000);
}

void TestRemoteDocument::anIntervalSetByHandOutlastsTheFirstPoll()
{
    openDocument();
    m_doc->changeFeed()->setInterval(1234);
    m_server->clearRequests();
    QTRY_VERIFY((m_doc->changeFeed()->pollNow(),
                 m_server->requests("GET", QStringLiteral("/api/directory")).size() >= 2));
    // A plain server would otherwise have set 60 s.
    QCOMPARE(m_doc->changeFeed()->interval(), 1234);
}

// A listing is the slowest answer a server gives: lint-all and the registry total share one,
// and the total is what a local directory with the same rows shows.
void TestRemoteDocument::lintAllListsTheDirectoryOnce()
{
    LintController remote;
    remote.setDocument(m_doc.get(), true);
    QSignalSpy remoteTotal(&remote, &LintController::registryTotalChanged);
    remote.lintAll();
    QTRY_VERIFY_WITH_TIMEOUT(!remoteTotal.isEmpty() && !remoteTotal.last().first().toString().isEmpty(),
                             10000);
    QCOMPARE(m_server->requests("GET", QStringLiteral("/api/directory")).size(), 1);

    QTemporaryDir dir;
    const StoreResult<QList<Row>> rows = m_doc->store().allRows();
    QVERIFY(rows.ok());
    DirectoryDocument local(LintFixture::openStore(dir.filePath(QStringLiteral("copy.db")), rows.value()));
    QVERIFY(!local.load().isError());
    LintController lint;
    lint.setDocument(&local, true);
    QSignalSpy localTotal(&lint, &LintController::registryTotalChanged);
    lint.lintAll();
    QTRY_VERIFY_WITH_TIMEOUT(!localTotal.isEmpty() && !localTotal.last().first().toString().isEmpty(), 10000);
    QCOMPARE(remoteTotal.last().first().toString(), localTotal.last().first().toString());
}

QTEST_MAIN(TestRemoteDocument)
#include "tst_remotedocument.moc"
