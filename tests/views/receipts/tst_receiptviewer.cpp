#include "dispatch/call/invocationids.h"
#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/core/isotime.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/store/defaultlocations.h"
#include "models/receipttablemodel.h"
#include "models/receipttreemodel.h"
#include "tests/support/receiptfixture.h"
#include "tests/views/viewtestsupport.h"
#include "views/invoke/durationplot.h"
#include "views/receipts/receiptdetailview.h"
#include "views/receipts/receiptfileverificationdialog.h"
#include "views/receipts/receiptfilterbar.h"
#include "views/receipts/receiptviewer.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeView>

// The viewer over receipts issued through a real DirectoryLedger (file-kept key): what
// the table lists, what the detail pane says about signature and drift, the trace tree,
// the plot, export and the offline check of an exported file.
class TestReceiptViewer : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void listsReceiptsAndSaysWhereTheKeyLives();
    void aKeyThatCannotBeHadIsSaidWhole();
    void showsEveryFieldAndAValidSignature();
    void showsDriftWhenTheRowChangedOrIsGone();
    void jumpToRowAsksForTheKey();
    void showsTheTraceAsATree();
    void plotsTheKeysDurations();
    void filtersFromTheBar();
    void filtersByCaller();
    void showInvocationClearsFiltersThatHideIt();
    void reloadAddsNewReceipts();
    void followsReceiptsWrittenElsewhere();
    void saysWhichReceiptsAreArchived();
    void followsAnArchiveTakenElsewhere();
    void saysWhyTheListIsEmpty();
    void copiesAndExportsJson();
    void verifiesAnExportedFile();
    void findsATamperedFileInvalidAndNamesTheField();
    void verifiesWithAPublicKeyFile();

private:
    Receipt issue(const QString &key, qint64 durationMs, const QString &parent = {},
                  const QString &trace = {}, const QString &invocationId = {});
    void openViewer();
    // The text across the empty list, or empty when none shows.
    QString emptyListNote() const;
    // An instant a millisecond after every receipt issued so far, and before the next one;
    // empty if the clock stood still.
    static QString instantAfterTheLastReceipt();
    // An archive cutoff as the viewer shows it: to the second, or to the millisecond where
    // it has one.
    static QString shownCutoff(const QString &before);
    QString exportShown(const QString &name);
    QString writeFile(const QString &name, const QByteArray &bytes);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::shared_ptr<DirectoryLedger> m_ledger;
    FakePrompter m_prompter;
    std::unique_ptr<ReceiptViewer> m_viewer;
    QList<Receipt> m_issued; // oldest first
    Receipt m_flow;
    QList<Receipt> m_flowCalls;
};

Receipt TestReceiptViewer::issue(const QString &key, qint64 durationMs, const QString &parent,
                                 const QString &trace, const QString &invocationId)
{
    const Row row = m_store->row(key).value();
    Receipt receipt;
    receipt.invocationId = invocationId.isEmpty() ? InvocationIds::newInvocationId() : invocationId;
    receipt.trace = trace.isEmpty() ? InvocationIds::newTrace() : trace;
    receipt.key = key;
    receipt.parent = parent;
    receipt.actor = QStringLiteral("owner:terminal-key");
    receipt.runner = row.type;
    receipt.startedAt = IsoTime::nowUtc();
    receipt.durationMs = durationMs;
    receipt.material = durationMs % 2 == 0;
    receipt.status = Receipt::statusFor(receipt.material);
    receipt.inputFingerprint = Receipt::sha256Hex(QStringLiteral("in"));
    receipt.outputFingerprint = Receipt::sha256Hex(QStringLiteral("out"));
    receipt.contractFingerprint = ContractFingerprint::of(row);
    StoreResult<Receipt> issued = m_ledger->issue(receipt);
    if (!issued.ok())
        qFatal("cannot issue: %s", qPrintable(issued.error().message));
    m_issued.append(issued.value());
    return issued.value();
}

void TestReceiptViewer::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_store = openStoreWithRows(m_dir->filePath(QStringLiteral("dir.db")), sampleRows());
    QVERIFY(m_store);
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_issued.clear();
    m_flowCalls.clear();
    m_prompter = FakePrompter();
    issue(QStringLiteral("NOW"), 12);
    issue(QStringLiteral("ECHO_BACK"), 7);
    issue(QStringLiteral("WEATHER_NOW"), 340);
    issue(QStringLiteral("NOW"), 18);
    // A flow's calls finish first and name the flow's invocation as their parent.
    const QString flowId = InvocationIds::newInvocationId();
    const QString trace = InvocationIds::newTrace();
    m_flowCalls.append(issue(QStringLiteral("NOW"), 4, flowId, trace));
    m_flowCalls.append(issue(QStringLiteral("ECHO_BACK"), 6, flowId, trace));
    m_flow = issue(QStringLiteral("MORNING"), 30, QString(), trace, flowId);
}
void TestReceiptViewer::cleanup()
{
    m_viewer.reset();
    m_ledger.reset();
    m_store.reset();
    m_dir.reset();
}

void TestReceiptViewer::openViewer()
{
    m_viewer = std::make_unique<ReceiptViewer>(m_ledger, m_prompter);
    m_viewer->resize(1200, 760);
    m_viewer->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_viewer.get()));
    QTRY_VERIFY(m_viewer->model()->totalReceipts() >= 0 && !m_viewer->model()->isLoading());
}

QString TestReceiptViewer::emptyListNote() const
{
    const auto *note = m_viewer->table()->viewport()->findChild<QLabel *>(QStringLiteral("viewportNote"));
    return note && note->isVisible() ? note->text() : QString();
}

QString TestReceiptViewer::writeFile(const QString &name, const QByteArray &bytes)
{
    const QString path = m_dir->filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QString TestReceiptViewer::exportShown(const QString &name)
{
    m_prompter.receiptExportPath = m_dir->filePath(name);
    m_viewer->detail()->exportButton()->click();
    return m_prompter.receiptExportPath;
}

void TestReceiptViewer::listsReceiptsAndSaysWhereTheKeyLives()
{
    openViewer();
    QCOMPARE(m_viewer->model()->rowCount(), m_issued.size());
    QCOMPARE(m_viewer->table()->model(), m_viewer->model());
    QCOMPARE(m_viewer->model()->invocationIdAt(0), m_issued.last().invocationId);
    QVERIFY2(m_viewer->headerText().contains(QStringLiteral("%1 receipts").arg(m_issued.size())),
             qPrintable(m_viewer->headerText()));
    const QString storage = m_ledger->keyStorage().value();
    QVERIFY(storage.contains(QStringLiteral("signing-key")));
    QTRY_VERIFY2(m_viewer->headerText().contains(storage), qPrintable(m_viewer->headerText()));
}

// A key file that holds nothing: the header names the problem in a few words, and the line
// below it says it whole, with what to do, where the header's one line would cut it.
void TestReceiptViewer::aKeyThatCannotBeHadIsSaidWhole()
{
    const QString emptyFile = writeFile(QStringLiteral("empty.pem"), QByteArray());
    QVERIFY(QFile::setPermissions(emptyFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly,
                                                 CapabilityGateRefusalCounter::kDefaultIntervalMs, emptyFile);
    openViewer();
    QTRY_VERIFY(!m_viewer->keyProblemText().isEmpty());
    const QString problem = m_viewer->keyProblemText();
    QVERIFY2(problem.contains(emptyFile + QStringLiteral(" is empty")), qPrintable(problem));
    QVERIFY2(problem.contains(QStringLiteral("start a new key")), qPrintable(problem));
    QVERIFY2(m_viewer->headerText().endsWith(QStringLiteral("The signing key is unavailable (see below)")),
             qPrintable(m_viewer->headerText()));
    // Shown, the problem's lines are asked for as a fixed height: no height for each width,
    // which would have a dock's scroll area lay the viewer out at its preferred height.
    auto *line = m_viewer->findChild<QLabel *>(QStringLiteral("receiptKeyProblem"));
    QVERIFY(line && line->isVisible());
    QVERIFY(!line->hasHeightForWidth());
    QVERIFY(!m_viewer->layout()->hasHeightForWidth());
    QVERIFY(line->height() >= 2 * line->fontMetrics().lineSpacing());

    // The key file put back, a new look clears the problem.
    QFile::remove(emptyFile);
    QVERIFY(QFile::copy(DefaultLocations::signingKeyFile(m_store->location()), emptyFile));
    m_viewer->recheckSigningKey();
    QTRY_VERIFY(m_viewer->keyProblemText().isEmpty());
    QVERIFY2(!m_viewer->headerText().contains(QStringLiteral("unavailable")),
             qPrintable(m_viewer->headerText()));
}

void TestReceiptViewer::showsEveryFieldAndAValidSignature()
{
    openViewer();
    const Receipt &weather = m_issued.at(2);
    m_viewer->showInvocation(weather.invocationId);
    QCOMPARE(m_viewer->selectedInvocation(), weather.invocationId);
    QCOMPARE(m_viewer->table()->currentIndex().data(ReceiptTableModel::InvocationIdRole).toString(),
             weather.invocationId);
    const ReceiptDetailView &detail = *m_viewer->detail();
    QCOMPARE(detail.fieldText(QStringLiteral("invocation_id")), weather.invocationId);
    QCOMPARE(detail.fieldText(QStringLiteral("trace")), weather.trace);
    QCOMPARE(detail.fieldText(QStringLiteral("key")), QStringLiteral("WEATHER_NOW"));
    QCOMPARE(detail.fieldText(QStringLiteral("runner")), QStringLiteral("http"));
    QCOMPARE(detail.fieldText(QStringLiteral("actor")), weather.actor);
    QCOMPARE(detail.fieldText(QStringLiteral("started_at")), weather.startedAt);
    QCOMPARE(detail.fieldText(QStringLiteral("duration_ms")), QStringLiteral("340 ms"));
    QCOMPARE(detail.fieldText(QStringLiteral("material")), QStringLiteral("yes"));
    QCOMPARE(detail.fieldText(QStringLiteral("status")), Receipt::provenMaterial);
    QCOMPARE(detail.fieldText(QStringLiteral("fingerprints.input")), weather.inputFingerprint);
    QCOMPARE(detail.fieldText(QStringLiteral("fingerprints.output")), weather.outputFingerprint);
    QCOMPARE(detail.fieldText(QStringLiteral("fingerprints.contract")), weather.contractFingerprint);
    QVERIFY(detail.fieldText(QStringLiteral("parent")).contains(QStringLiteral("top level")));
    QCOMPARE(detail.signatureText(), QStringLiteral("valid"));
    QCOMPARE(detail.driftText(), QString());
    QVERIFY(detail.jumpButton()->isEnabled());
}

void TestReceiptViewer::showsDriftWhenTheRowChangedOrIsGone()
{
    QVERIFY(!m_store
                 ->patch(QStringLiteral("WEATHER_NOW"),
                         {{QStringLiteral("target"), QStringLiteral("GET https://b.example/$1")}})
                 .error()
                 .isError());
    QVERIFY(!m_store->remove(QStringLiteral("ECHO_BACK")).isError());
    // Editing what the fingerprint leaves out is no drift.
    QVERIFY(!m_store->patch(QStringLiteral("NOW"), {{QStringLiteral("examples"), QStringLiteral("[]")}})
                 .error()
                 .isError());
    openViewer();
    const ReceiptDetailView &detail = *m_viewer->detail();

    m_viewer->showInvocation(m_issued.at(2).invocationId);
    QCOMPARE(detail.driftText(), QStringLiteral("contract changed since"));
    QCOMPARE(detail.fieldText(QStringLiteral("current_contract")),
             ContractFingerprint::of(m_store->row(QStringLiteral("WEATHER_NOW")).value()));
    QCOMPARE(detail.signatureText(), QStringLiteral("valid"));
    QVERIFY(detail.jumpButton()->isEnabled());

    m_viewer->showInvocation(m_issued.at(1).invocationId);
    QCOMPARE(detail.driftText(), QStringLiteral("row deleted"));
    QVERIFY(!detail.jumpButton()->isEnabled());

    m_viewer->showInvocation(m_issued.at(0).invocationId);
    QCOMPARE(detail.driftText(), QString());
}

void TestReceiptViewer::jumpToRowAsksForTheKey()
{
    openViewer();
    QSignalSpy requested(m_viewer.get(), &ReceiptViewer::rowRequested);
    m_viewer->showInvocation(m_issued.at(1).invocationId);
    m_viewer->detail()->jumpButton()->click();
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.first().first().toString(), QStringLiteral("ECHO_BACK"));
}

void TestReceiptViewer::showsTheTraceAsATree()
{
    openViewer();
    m_viewer->showInvocation(m_flowCalls.at(1).invocationId);
    const ReceiptTreeModel &tree = *m_viewer->treeModel();
    QCOMPARE(tree.rowCount(), 1);
    const QModelIndex root = tree.index(0, 0);
    QCOMPARE(root.data(ReceiptTreeModel::InvocationIdRole).toString(), m_flow.invocationId);
    QCOMPARE(tree.rowCount(root), 2);
    QCOMPARE(tree.index(0, 0, root).data().toString(), m_flowCalls.at(0).invocationId);
    QCOMPARE(tree.index(1, 0, root).data().toString(), m_flowCalls.at(1).invocationId);
    QCOMPARE(m_viewer->tree()->currentIndex().data(ReceiptTreeModel::InvocationIdRole).toString(),
             m_flowCalls.at(1).invocationId);
    QVERIFY(m_viewer->detail()->fieldText(QStringLiteral("parent")).contains(m_flow.invocationId));

    // Activating the flow in the tree selects it in the table, and shows its details.
    auto *side = m_viewer->findChild<QTabWidget *>(QStringLiteral("receiptSide"));
    QVERIFY(side);
    side->setCurrentWidget(m_viewer->tree());
    emit m_viewer->tree()->activated(root);
    QCOMPARE(side->currentIndex(), 0);
    QCOMPARE(m_viewer->selectedInvocation(), m_flow.invocationId);
    QCOMPARE(m_viewer->table()->currentIndex().data(ReceiptTableModel::InvocationIdRole).toString(),
             m_flow.invocationId);
    QCOMPARE(m_viewer->tree()->currentIndex().data(ReceiptTreeModel::InvocationIdRole).toString(),
             m_flow.invocationId);
}

void TestReceiptViewer::plotsTheKeysDurations()
{
    openViewer();
    // A receipt asked for by id comes up in Details, whichever tab was showing.
    auto *side = m_viewer->findChild<QTabWidget *>(QStringLiteral("receiptSide"));
    QVERIFY(side);
    side->setCurrentWidget(m_viewer->plot());
    m_viewer->showInvocation(m_issued.at(0).invocationId);
    QCOMPARE(side->currentIndex(), 0);
    const DurationPlot &plot = *m_viewer->plot();
    // Read on a worker.
    QTRY_COMPARE(plot.key(), QStringLiteral("NOW"));
    QList<double> durations;
    for (const QPointF &point : plot.points())
        durations.append(point.y());
    QCOMPARE(durations, QList<double>({12, 18, 4}));
    QVERIFY2(plot.caption().contains(QStringLiteral("3 receipts")), qPrintable(plot.caption()));
    m_viewer->showInvocation(m_issued.at(2).invocationId);
    QTRY_COMPARE(plot.points().size(), 1);
    // A key with more receipts than points is plotted by buckets, and says so.
    DurationPlot buckets;
    buckets.setSeries(QStringLiteral("NOW"), {QPointF(0, 40), QPointF(3600000, 1200)}, std::nullopt,
                      QStringLiteral("hour"));
    QCOMPARE(buckets.caption(), QStringLiteral("NOW: the slowest of each hour, 2 of them, 40 ms – 1.20 s"));
}

void TestReceiptViewer::filtersFromTheBar()
{
    openViewer();
    ReceiptFilterBar &bar = *m_viewer->filterBar();
    const ReceiptTableModel &model = *m_viewer->model();
    // Each change is read on a worker; the rows shown stay until its page comes.
    QTest::keyClicks(bar.keyEdit(), QStringLiteral("echo"));
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(model.rowCount(), 2);
    QVERIFY2(m_viewer->headerText().startsWith(QStringLiteral("2 of 7 receipts")),
             qPrintable(m_viewer->headerText()));
    bar.keyEdit()->clear();
    const int ran = bar.statusCombo()->findData(Receipt::ranWithoutMaterial);
    QVERIFY(ran > 0);
    bar.statusCombo()->setCurrentIndex(ran);
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(model.rowCount(), 1); // only ECHO_BACK took an odd 7 ms
    bar.statusCombo()->setCurrentIndex(0);
    QTest::keyClicks(bar.searchEdit(), m_flow.trace);
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(model.rowCount(), 3);
    bar.searchEdit()->clear();
    bar.fromCheck()->setChecked(true);
    bar.fromEdit()->setDateTime(QDateTime::currentDateTimeUtc().addSecs(3600));
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(model.rowCount(), 0);
    bar.fromCheck()->setChecked(false);
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(model.rowCount(), m_issued.size());
}

// An MCP client's calls are one choice of the caller filter, beside the owner's.
void TestReceiptViewer::filtersByCaller()
{
    Receipt mcp = m_issued.last();
    mcp.invocationId = InvocationIds::newInvocationId();
    mcp.actor = QStringLiteral("mcp:claude-desktop");
    mcp.signature.clear();
    QVERIFY(m_ledger->issue(mcp).ok());
    openViewer();
    ReceiptFilterBar &bar = *m_viewer->filterBar();
    const int client = bar.actorCombo()->findData(QStringLiteral("mcp:claude-desktop"));
    QVERIFY(client > 0);
    QVERIFY(bar.actorCombo()->findData(QStringLiteral("owner:terminal-key")) > 0);
    bar.actorCombo()->setCurrentIndex(client);
    QTRY_VERIFY(!m_viewer->model()->isLoading());
    QCOMPARE(m_viewer->model()->rowCount(), 1);
    QCOMPARE(m_viewer->model()->invocationIdAt(0), mcp.invocationId);
    bar.clear();
    QTRY_VERIFY(!m_viewer->model()->isLoading());
    QCOMPARE(m_viewer->model()->rowCount(), m_issued.size() + 1);
}

void TestReceiptViewer::showInvocationClearsFiltersThatHideIt()
{
    openViewer();
    QTest::keyClicks(m_viewer->filterBar()->keyEdit(), QStringLiteral("WEATHER"));
    QTRY_VERIFY(!m_viewer->model()->isLoading());
    QCOMPARE(m_viewer->model()->rowCount(), 1);
    m_viewer->table()->selectRow(0);
    QVERIFY(m_viewer->table()->currentIndex().isValid());
    m_viewer->showInvocation(m_issued.at(0).invocationId);
    QCOMPARE(m_viewer->filterBar()->keyEdit()->text(), QString());
    QCOMPARE(m_viewer->selectedInvocation(), m_issued.at(0).invocationId); // shown at once
    // Until its row comes, no other receipt's row stays selected beside it.
    QVERIFY(!m_viewer->table()->selectionModel()->hasSelection()
            || m_viewer->table()->currentIndex().data(ReceiptTableModel::InvocationIdRole).toString()
                   == m_issued.at(0).invocationId);
    QTRY_COMPARE(m_viewer->model()->rowCount(), m_issued.size());
    QTRY_COMPARE(m_viewer->table()->currentIndex().data(ReceiptTableModel::InvocationIdRole).toString(),
                 m_issued.at(0).invocationId);
}

void TestReceiptViewer::followsReceiptsWrittenElsewhere()
{
    openViewer();
    const int listed = m_viewer->model()->rowCount();
    const qint64 total = m_viewer->model()->totalReceipts();
    // Another writer on the same file, as capdeskctl serve would be: no reload is asked for.
    auto elsewhere = SqlDirectoryStore::open(m_dir->filePath(QStringLiteral("dir.db")));
    QVERIFY2(elsewhere.ok(), qPrintable(elsewhere.error().message));
    QVERIFY(ReceiptFixture::insert(elsewhere.value()->database(), 0, 3, 4).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_viewer->model()->rowCount(), listed + 3,
                              3 * ReceiptViewer::kFollowIntervalMs);
    QTRY_COMPARE(m_viewer->model()->totalReceipts(), total + 3);
    QCOMPARE(m_viewer->model()->invocationIdAt(0), ReceiptFixture::invocationId(2));
    // Hidden, it stops looking; shown again, it looks again.
    const auto *follow = m_viewer->findChild<QTimer *>(QStringLiteral("receiptFollow"));
    QVERIFY(follow && follow->isActive());
    m_viewer->hide();
    QVERIFY(!follow->isActive());
    m_viewer->show();
    QVERIFY(follow->isActive());
}

void TestReceiptViewer::reloadAddsNewReceipts()
{
    openViewer();
    const QString selected = m_viewer->selectedInvocation();
    QVERIFY(!selected.isEmpty());
    const Receipt later = issue(QStringLiteral("TRIAGE"), 900);
    m_viewer->reload();
    QTRY_COMPARE(m_viewer->model()->rowCount(), m_issued.size());
    QCOMPARE(m_viewer->model()->invocationIdAt(0), later.invocationId);
    QCOMPARE(m_viewer->selectedInvocation(), selected);
    QCOMPARE(m_viewer->table()->currentIndex().data(ReceiptTableModel::InvocationIdRole).toString(),
             selected);
    QTRY_VERIFY(m_viewer->headerText().startsWith(QStringLiteral("8 receipts")));
}

void TestReceiptViewer::copiesAndExportsJson()
{
    openViewer();
    const Receipt &echo = m_issued.at(1);
    m_viewer->showInvocation(echo.invocationId);
    m_viewer->detail()->copyButton()->click();
    QCOMPARE(QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object(), echo.toJson());

    const QString path = exportShown(QStringLiteral("echo.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(file.readAll()).object(), echo.toJson());
    QVERIFY(m_prompter.errors.isEmpty());

    m_prompter.receiptExportPath = m_dir->filePath(QStringLiteral("no/such/folder/x.json"));
    m_viewer->exportSelected();
    QCOMPARE(m_prompter.errors.size(), 1);
}

void TestReceiptViewer::verifiesAnExportedFile()
{
    openViewer();
    m_viewer->showInvocation(m_issued.at(2).invocationId);
    m_prompter.receiptFile = exportShown(QStringLiteral("weather.json"));
    m_viewer->verifyReceiptFile();
    ReceiptFileVerificationDialog *dialog = m_viewer->verificationDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->verdict(), QStringLiteral("valid"));
    QVERIFY(dialog->outcome().comparedWithStored);
    QVERIFY(dialog->outcome().differing.isEmpty());
    QVERIFY(dialog->outcome().fields.contains(QStringLiteral("fingerprints.contract")));
    QCOMPARE(dialog->fieldTable()->rowCount(), dialog->outcome().fields.size());
    QVERIFY2(dialog->summaryText().contains(QStringLiteral("Identical")), qPrintable(dialog->summaryText()));

    m_prompter.receiptFile = writeFile(QStringLiteral("not.json"), "{ nope");
    QVERIFY(dialog->chooseReceiptFile());
    QCOMPARE(dialog->verdict(), QString());
    QVERIFY(dialog->summaryText().startsWith(QStringLiteral("not JSON")));

    m_prompter.receiptFile.clear(); // cancelled: no dialog
    dialog->close();
    m_viewer->verifyReceiptFile();
    QTRY_VERIFY(!m_viewer->verificationDialog());
}

void TestReceiptViewer::findsATamperedFileInvalidAndNamesTheField()
{
    openViewer();
    QJsonObject tampered = m_issued.at(2).toJson();
    tampered.insert(QStringLiteral("duration_ms"), 34);
    m_prompter.receiptFile = writeFile(QStringLiteral("tampered.json"), QJsonDocument(tampered).toJson());
    m_viewer->verifyReceiptFile();
    ReceiptFileVerificationDialog *dialog = m_viewer->verificationDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->verdict(), QStringLiteral("invalid"));
    QCOMPARE(dialog->outcome().differing, QStringList({QStringLiteral("duration_ms")}));
    QVERIFY2(dialog->summaryText().contains(QStringLiteral("duration_ms")),
             qPrintable(dialog->summaryText()));

    // A receipt this directory never saw is still checked, with nothing to compare.
    QJsonObject foreign = m_issued.at(0).toJson();
    foreign.insert(QStringLiteral("invocation_id"), QStringLiteral("inv_0000000000"));
    m_prompter.receiptFile = writeFile(QStringLiteral("foreign.json"), QJsonDocument(foreign).toJson());
    QVERIFY(dialog->chooseReceiptFile());
    QCOMPARE(dialog->verdict(), QStringLiteral("invalid"));
    QVERIFY(!dialog->outcome().comparedWithStored);
}

void TestReceiptViewer::verifiesWithAPublicKeyFile()
{
    openViewer();
    m_prompter.receiptFile =
        writeFile(QStringLiteral("now.json"), QJsonDocument(m_issued.at(0).toJson()).toJson());
    m_viewer->verifyReceiptFile();
    ReceiptFileVerificationDialog &dialog = *m_viewer->verificationDialog();

    m_prompter.publicKeyFile = writeFile(QStringLiteral("ours.pem"), m_ledger->publicKeyPem().value());
    dialog.chooseKeyFile();
    QCOMPARE(dialog.verdict(), QStringLiteral("valid"));

    m_prompter.publicKeyFile =
        writeFile(QStringLiteral("other.pem"), SigningKey::generate().publicKey().pem());
    dialog.chooseKeyFile();
    QCOMPARE(dialog.verdict(), QStringLiteral("invalid"));

    m_prompter.publicKeyFile = writeFile(QStringLiteral("junk.pem"), "not a key");
    dialog.chooseKeyFile();
    QCOMPARE(m_prompter.errors.size(), 1);
    QCOMPARE(dialog.verdict(), QStringLiteral("invalid")); // still checked with other.pem

    dialog.useDirectoryKeys();
    QCOMPARE(dialog.verdict(), QStringLiteral("valid"));
}

QTEST_MAIN(TestReceiptViewer)
#include "tst_receiptviewer.moc"

QString TestReceiptViewer::instantAfterTheLastReceipt()
{
    const QString last = IsoTime::nowUtc();
    if (!QTest::qWaitFor([&] { return IsoTime::nowUtc() > last; }, 1000))
        return {};
    const QString before = IsoTime::nowUtc();
    if (!QTest::qWaitFor([&] { return IsoTime::nowUtc() > before; }, 1000))
        return {};
    return before;
}

QString TestReceiptViewer::shownCutoff(const QString &before)
{
    const QDateTime at = QDateTime::fromString(before, Qt::ISODateWithMs).toUTC();
    return at.toString(at.time().msec() == 0 ? QStringLiteral("yyyy-MM-dd HH:mm:ss")
                                             : QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

void TestReceiptViewer::saysWhichReceiptsAreArchived()
{
    const QString before = instantAfterTheLastReceipt();
    QVERIFY(!before.isEmpty());
    const StoreResult<ReceiptArchiver::Outcome> archived =
        m_ledger->archiveReceipts(before, m_dir->filePath(QStringLiteral("old.jsonl")));
    QVERIFY2(archived.ok(), qPrintable(archived.error().message));
    QCOMPARE(archived.value().seal->receiptCount, m_issued.size());
    issue(QStringLiteral("NOW"), 2);
    openViewer();
    QCOMPARE(m_viewer->model()->rowCount(), 1);
    QVERIFY2(m_viewer->headerText().startsWith(
                 QStringLiteral("1 receipt · receipts started before %1 UTC are archived")
                     .arg(shownCutoff(before))),
             qPrintable(m_viewer->headerText()));
}

void TestReceiptViewer::followsAnArchiveTakenElsewhere()
{
    const QString before = instantAfterTheLastReceipt();
    QVERIFY(!before.isEmpty());
    const Receipt kept = issue(QStringLiteral("TRIAGE"), 900);
    openViewer();
    QCOMPARE(m_viewer->model()->rowCount(), m_issued.size());
    // The detail pane shows a receipt the archive will take.
    const Receipt &archivedOne = m_issued.at(2);
    m_viewer->showInvocation(archivedOne.invocationId);
    QCOMPARE(m_viewer->detail()->invocationId(), archivedOne.invocationId);
    QVERIFY(m_viewer->detail()->messageText().isEmpty());

    // Another process archives, as `capdeskctl receipts archive` would, and writes no
    // receipt after it: no reload is asked for.
    auto elsewhere = SqlDirectoryStore::open(m_dir->filePath(QStringLiteral("dir.db")));
    QVERIFY2(elsewhere.ok(), qPrintable(elsewhere.error().message));
    DirectoryLedger otherLedger(elsewhere.value(), DirectoryLedger::KeyPlacement::FileOnly);
    const StoreResult<ReceiptArchiver::Outcome> archived =
        otherLedger.archiveReceipts(before, m_dir->filePath(QStringLiteral("old.jsonl")));
    QVERIFY2(archived.ok(), qPrintable(archived.error().message));
    QCOMPARE(archived.value().seal->receiptCount, m_issued.size() - 1);

    QTRY_COMPARE_WITH_TIMEOUT(m_viewer->model()->rowCount(), 1, 3 * ReceiptViewer::kFollowIntervalMs);
    QCOMPARE(m_viewer->model()->invocationIdAt(0), kept.invocationId);
    QTRY_COMPARE(m_viewer->model()->totalReceipts(), 1);
    QTRY_VERIFY2(m_viewer->headerText().startsWith(QStringLiteral("1 receipt · receipts started before")),
                 qPrintable(m_viewer->headerText()));
    QTRY_VERIFY2(
        m_viewer->detail()->messageText().startsWith(
            QStringLiteral("%1 is no longer in the directory: receipts started before %2 UTC are archived "
                           "(capdeskctl confirm %1 --archive FILE)")
                .arg(archivedOne.invocationId, shownCutoff(before))),
        qPrintable(m_viewer->detail()->messageText()));

    // A second archive takes the newest receipt too: the list empties and the dock goes
    // quiet, rather than counting again and again behind a receipt that is gone.
    const QString everything = instantAfterTheLastReceipt();
    QVERIFY(!everything.isEmpty());
    const StoreResult<ReceiptArchiver::Outcome> all =
        otherLedger.archiveReceipts(everything, m_dir->filePath(QStringLiteral("rest.jsonl")));
    QVERIFY2(all.ok(), qPrintable(all.error().message));
    QTRY_COMPARE_WITH_TIMEOUT(m_viewer->model()->rowCount(), 0, 3 * ReceiptViewer::kFollowIntervalMs);
    QTRY_COMPARE(m_viewer->model()->totalReceipts(), 0);
    QTRY_VERIFY(!m_viewer->model()->isLoading());
    QTRY_VERIFY2(emptyListNote().startsWith(
                     QStringLiteral("No receipts left in the directory: every one was started before %1 UTC")
                         .arg(shownCutoff(everything))),
                 qPrintable(emptyListNote()));
}

// An empty list says why: nothing called yet, or filters that match nothing; a list with
// receipts says nothing over them.
void TestReceiptViewer::saysWhyTheListIsEmpty()
{
    openViewer();
    QVERIFY(emptyListNote().isEmpty());
    ReceiptFilterBar &bar = *m_viewer->filterBar();
    bar.fromCheck()->setChecked(true);
    bar.fromEdit()->setDateTime(QDateTime::currentDateTimeUtc().addSecs(3600));
    QTRY_VERIFY(!m_viewer->model()->isLoading());
    QCOMPARE(m_viewer->model()->rowCount(), 0);
    QTRY_COMPARE(emptyListNote(), QStringLiteral("No receipt matches these filters."));
    // The receipt chosen before stays in the pane beside, with its plot.
    QVERIFY(!m_viewer->detail()->invocationId().isEmpty());
    QVERIFY(m_viewer->detail()->messageText().isEmpty());
    bar.fromCheck()->setChecked(false);
    QTRY_COMPARE(m_viewer->model()->rowCount(), m_issued.size());
    QTRY_VERIFY(emptyListNote().isEmpty());

    // A directory no call has reached yet; its first receipt takes the note away.
    m_viewer.reset();
    m_store = openStoreWithRows(m_dir->filePath(QStringLiteral("fresh.db")), sampleRows());
    QVERIFY(m_store);
    m_ledger = std::make_shared<DirectoryLedger>(m_store, DirectoryLedger::KeyPlacement::FileOnly);
    m_issued.clear();
    openViewer();
    QTRY_VERIFY2(emptyListNote().startsWith(QStringLiteral("No receipts yet. Every call writes one")),
                 qPrintable(emptyListNote()));
    const auto *note = m_viewer->table()->viewport()->findChild<QLabel *>(QStringLiteral("viewportNote"));
    QCOMPARE(note->geometry(), m_viewer->table()->viewport()->rect());
    // The pane beside it does not ask for a selection that cannot be made.
    QCOMPARE(m_viewer->detail()->messageText(),
             QStringLiteral("A receipt's fields and signature show here once the list has one."));
    QCOMPARE(m_viewer->plot()->caption(),
             QStringLiteral("A key's durations plot here once the list has a receipt."));
    QVERIFY2(m_viewer->headerText().contains(QStringLiteral("No signing key yet")),
             qPrintable(m_viewer->headerText()));
    QSignalSpy keyMade(m_viewer.get(), &ReceiptViewer::signingKeyMade);
    issue(QStringLiteral("NOW"), 5);
    QTRY_COMPARE_WITH_TIMEOUT(m_viewer->model()->rowCount(), 1, 3 * ReceiptViewer::kFollowIntervalMs);
    QVERIFY(emptyListNote().isEmpty());
    QCOMPARE(m_viewer->detail()->messageText(),
             QStringLiteral("Select a receipt to see every field and check its signature."));
    QCOMPARE(m_viewer->plot()->caption(), QStringLiteral("Select a receipt to plot its key's durations"));
    // That call made the key, and the header says where it went.
    QTRY_VERIFY2(m_viewer->headerText().contains(QStringLiteral("Receipts are signed with a key kept in")),
                 qPrintable(m_viewer->headerText()));
    QCOMPARE(keyMade.size(), 1); // the status bar's key label reads it again then
}
