#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/lintcontroller.h"
#include "models/lintstate.h"
#include "tests/support/lintfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace LintFixture;
using Lint = SummaryTable::Lint;

// The controller over a real directory file: lint-all paints the table, an edit re-lints
// the row and the rows referencing it, and the save explanation matches the gate.
class TestLintController : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void lintAllPaintsTheTable();
    void lintAllWhenLoadedSkipsLargeDirectories();
    void lintAllWhenLoadedHasNoLimitByDefault();
    void lintAllSeesTheDrafts();
    void editsDuringTheRunAreLintedAfterIt();
    void editReLintsTheRowAndItsReferrers();
    void referrersFollowTheKeysTheyName();
    void referrersKeepTheirOwnFindings();
    void nonCompliantFilterAndLintSortFollowReLints();
    void saveExplanationNamesTheFailingRules();
    void registryTotalFollowsEdits();
    void registryTotalCountsDraftsMadeBeforeIt();
    void progressEndsAtEveryRowOnce_data();
    void progressEndsAtEveryRowOnce();
    void cancelStopsWithoutFindings();

private:
    void lintAllAndWait();
    QStringList tableKeys() const;
    QStringList codes(const QString &key) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<LintController> m_lint;
};

void TestLintController::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto store =
        openStore(m_dir->filePath(QStringLiteral("d.db")),
                  {goodRow(QStringLiteral("ECHO_A")), goodRow(QStringLiteral("ECHO_B")),
                   warningRow(QStringLiteral("WARN_ROW")), undocumentedRow(QStringLiteral("BAD_ROW")),
                   flowRow(QStringLiteral("PAIR_FLOW"), QStringLiteral("ECHO_A > ECHO_B"))});
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_lint = std::make_unique<LintController>();
    m_lint->setRelintDelay(0);
    m_lint->setDocument(m_document.get(), true);
}

void TestLintController::cleanup()
{
    m_lint.reset();
    m_document.reset();
    m_dir.reset();
}

void TestLintController::lintAllWhenLoadedSkipsLargeDirectories()
{
    QSignalSpy started(m_lint.get(), &LintController::started);
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    const int rows = m_document->tableModel()->totalRows();
    QVERIFY(rows > 1);
    QTRY_VERIFY(!m_document->tableModel()->isLoading());
    m_lint->lintAllWhenLoaded(rows - 1);
    // A loaded table is judged from a zero timer; one started after it fires after it, so
    // by then the directory has been found too large, or a lint has started.
    bool judged = false;
    QTimer::singleShot(0, this, [&judged] { judged = true; });
    QTRY_VERIFY(judged);
    QCOMPARE(started.count(), 0);
    m_lint->lintAllWhenLoaded(rows);
    QVERIFY(finished.wait(5000));
    QCOMPARE(started.count(), 1);
}

void TestLintController::lintAllWhenLoadedHasNoLimitByDefault()
{
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    m_lint->lintAllWhenLoaded();
    QVERIFY(finished.wait(5000));
    QCOMPARE(m_document->tableModel()->lintLevel(QStringLiteral("BAD_ROW")), Lint::Error);
}

// The store is read on the pool; what the user has typed but not saved is linted instead.
void TestLintController::lintAllSeesTheDrafts()
{
    m_document->setField(QStringLiteral("ECHO_A"), QStringLiteral("content"), QStringLiteral("[\"$1\"]"));
    m_document->setField(QStringLiteral("BAD_ROW"), QStringLiteral("content"),
                         goodRow(QStringLiteral("BAD_ROW")).content);
    m_document->deleteRows({QStringLiteral("ECHO_B")});
    lintAllAndWait();
    QVERIFY(codes(QStringLiteral("ECHO_A")).contains(QStringLiteral("H010")));
    QCOMPARE(codes(QStringLiteral("BAD_ROW")), QStringList());
    QCOMPARE(codes(QStringLiteral("PAIR_FLOW")), QStringList{QStringLiteral("H024")});
    QVERIFY(!m_lint->state()->all().contains(QStringLiteral("ECHO_B")));
}

void TestLintController::editsDuringTheRunAreLintedAfterIt()
{
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    m_lint->lintAll();
    m_document->setField(QStringLiteral("BAD_ROW"), QStringLiteral("content"),
                         goodRow(QStringLiteral("BAD_ROW")).content);
    m_document->deleteRows({QStringLiteral("ECHO_B")});
    QVERIFY(finished.count() == 1 || finished.wait(5000));
    QTRY_COMPARE(m_document->tableModel()->lintLevel(QStringLiteral("BAD_ROW")), Lint::Clean);
    QTRY_COMPARE(codes(QStringLiteral("PAIR_FLOW")), QStringList{QStringLiteral("H024")});
}

void TestLintController::lintAllAndWait()
{
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    m_lint->lintAll();
    QVERIFY(m_lint->isRunning() || finished.count() == 1);
    QVERIFY(finished.count() == 1 || finished.wait(5000));
    QVERIFY(!m_lint->isRunning());
}

QStringList TestLintController::codes(const QString &key) const
{
    QStringList found;
    for (const LintFinding &finding : m_lint->state()->findings(key))
        found.append(finding.code);
    return found;
}

QStringList TestLintController::tableKeys() const
{
    QStringList keys;
    for (int row = 0; row < m_document->tableModel()->rowCount(); ++row)
        keys.append(m_document->tableModel()->keyAt(row));
    return keys;
}

void TestLintController::lintAllPaintsTheTable()
{
    DirectoryTableModel *table = m_document->tableModel();
    QCOMPARE(table->lintLevel(QStringLiteral("ECHO_A")), Lint::Unknown);
    QSignalSpy progress(m_lint.get(), &LintController::progress);
    lintAllAndWait();
    QVERIFY(!progress.isEmpty());
    QCOMPARE(table->lintLevel(QStringLiteral("ECHO_A")), Lint::Clean);
    QCOMPARE(table->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Clean);
    QCOMPARE(table->lintLevel(QStringLiteral("WARN_ROW")), Lint::Warning);
    QCOMPARE(table->lintLevel(QStringLiteral("BAD_ROW")), Lint::Error);

    QStringList codes;
    for (const LintFinding &finding : m_lint->state()->findings(QStringLiteral("BAD_ROW")))
        codes.append(finding.code);
    for (const char *code : {"H010", "H011", "H012", "H013"})
        QVERIFY2(codes.contains(QLatin1String(code)), qPrintable(codes.join(u' ')));
    QCOMPARE(m_lint->state()->rowsWithFindings(), 2);

    const int row = table->rowOfKey(QStringLiteral("BAD_ROW"));
    const QModelIndex cell = table->index(row, DirectoryTableModel::LintColumn);
    QCOMPARE(cell.data(DirectoryTableModel::LintRole).toInt(), int(Lint::Error));
    QVERIFY(!cell.data(Qt::ToolTipRole).toString().isEmpty());
}

void TestLintController::editReLintsTheRowAndItsReferrers()
{
    lintAllAndWait();
    QSignalSpy changed(m_lint->state(), &LintState::rowChanged);
    // Deleting a flow's step breaks the flow, which was not edited.
    m_document->deleteRows({QStringLiteral("ECHO_B")});
    QTRY_COMPARE(m_document->tableModel()->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Error);
    bool namesTheStep = false;
    for (const LintFinding &finding : m_lint->state()->findings(QStringLiteral("PAIR_FLOW")))
        namesTheStep =
            namesTheStep
            || (finding.code == QLatin1String("H024") && finding.message.contains(QLatin1String("ECHO_B")));
    QVERIFY(namesTheStep);

    m_document->undoStack()->undo();
    QTRY_COMPARE(m_document->tableModel()->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Clean);
    QVERIFY(m_lint->state()->findings(QStringLiteral("PAIR_FLOW")).isEmpty());

    // Fixing a row's docs clears it as soon as the re-lint lands.
    m_document->setField(QStringLiteral("BAD_ROW"), QStringLiteral("content"),
                         goodRow(QStringLiteral("BAD_ROW")).content);
    QTRY_COMPARE(m_document->tableModel()->lintLevel(QStringLiteral("BAD_ROW")), Lint::Clean);
    QVERIFY(changed.count() >= 3);
}

// A row that is not edited is relinked when a row it names appears, moves or goes.
void TestLintController::referrersFollowTheKeysTheyName()
{
    DirectoryTableModel *table = m_document->tableModel();
    lintAllAndWait();
    m_document->setField(QStringLiteral("PAIR_FLOW"), QStringLiteral("content"),
                         flowRow(QStringLiteral("PAIR_FLOW"), QStringLiteral("ECHO_A > NEW_STEP")).content);
    QTRY_COMPARE(codes(QStringLiteral("PAIR_FLOW")), QStringList{QStringLiteral("H024")});

    const QString created = m_document->createRow(QStringLiteral("fn"));
    m_document->renameRow(created, QStringLiteral("NEW_STEP"));
    QTRY_COMPARE(table->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Clean);
    m_document->renameRow(QStringLiteral("NEW_STEP"), QStringLiteral("OTHER_STEP"));
    QTRY_COMPARE(table->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Error);
    QCOMPARE(codes(QStringLiteral("PAIR_FLOW")), QStringList{QStringLiteral("H024")});
    m_document->undoStack()->undo();
    QTRY_COMPARE(table->lintLevel(QStringLiteral("PAIR_FLOW")), Lint::Clean);

    // Through includes.
    m_document->setField(QStringLiteral("ECHO_A"), QStringLiteral("includes"), QStringLiteral("ECHO_B"));
    QTRY_COMPARE(table->lintLevel(QStringLiteral("ECHO_A")), Lint::Clean);
    m_document->deleteRows({QStringLiteral("ECHO_B")});
    QTRY_COMPARE(codes(QStringLiteral("ECHO_A")), QStringList{QStringLiteral("H060")});
    m_document->undoStack()->undo();
    QTRY_COMPARE(table->lintLevel(QStringLiteral("ECHO_A")), Lint::Clean);
}

// A relinked row keeps the findings of its own rules, in code order with the new ones.
void TestLintController::referrersKeepTheirOwnFindings()
{
    lintAllAndWait();
    m_document->setField(QStringLiteral("WARN_ROW"), QStringLiteral("includes"), QStringLiteral("ECHO_B"));
    QTRY_COMPARE(codes(QStringLiteral("WARN_ROW")), QStringList{QStringLiteral("H015")});
    m_document->deleteRows({QStringLiteral("ECHO_B")});
    QTRY_COMPARE(codes(QStringLiteral("WARN_ROW")),
                 (QStringList{QStringLiteral("H015"), QStringLiteral("H060")}));
    QCOMPARE(m_document->tableModel()->lintLevel(QStringLiteral("WARN_ROW")), Lint::Error);
    m_document->undoStack()->undo();
    QTRY_COMPARE(codes(QStringLiteral("WARN_ROW")), QStringList{QStringLiteral("H015")});
    QCOMPARE(m_document->tableModel()->lintLevel(QStringLiteral("WARN_ROW")), Lint::Warning);
}

void TestLintController::nonCompliantFilterAndLintSortFollowReLints()
{
    DirectoryTableModel *table = m_document->tableModel();
    QAbstractItemModelTester tester(table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    lintAllAndWait();
    DirectoryFilter filter;
    filter.nonCompliantOnly = true;
    table->setFilter(filter);
    QCOMPARE(tableKeys(), QStringList{QStringLiteral("BAD_ROW")});

    m_document->setField(QStringLiteral("ECHO_A"), QStringLiteral("content"), QStringLiteral("[\"$1\"]"));
    QTRY_COMPARE(tableKeys(), (QStringList{QStringLiteral("BAD_ROW"), QStringLiteral("ECHO_A")}));

    table->setFilter({});
    table->sort(DirectoryTableModel::LintColumn, Qt::DescendingOrder);
    // Descending reverses the key tie-break too, as every column does.
    QCOMPARE(tableKeys(),
             (QStringList{QStringLiteral("ECHO_A"), QStringLiteral("BAD_ROW"), QStringLiteral("WARN_ROW"),
                          QStringLiteral("PAIR_FLOW"), QStringLiteral("ECHO_B")}));
    m_document->undoStack()->undo();
    QTRY_COMPARE(tableKeys(), (QStringList{QStringLiteral("BAD_ROW"), QStringLiteral("WARN_ROW"),
                                           QStringLiteral("PAIR_FLOW"), QStringLiteral("ECHO_B"),
                                           QStringLiteral("ECHO_A")}));
}

void TestLintController::saveExplanationNamesTheFailingRules()
{
    lintAllAndWait();
    QVERIFY(m_lint->explainSave().isEmpty());

    // An old non-compliant row stays editable: no new error, no refusal.
    m_document->setField(QStringLiteral("BAD_ROW"), QStringLiteral("category"), QStringLiteral("other"));
    QVERIFY(m_lint->explainSave().isEmpty());

    // A compliant row that loses its docs is refused, saying it was compliant.
    m_document->setField(QStringLiteral("ECHO_A"), QStringLiteral("content"), QStringLiteral("[\"$1\"]"));
    // A new row must be compliant from the start.
    const QString created = m_document->createRow(QStringLiteral("fn"));
    const QList<SaveRefusal> refusals = m_lint->explainSave();
    QCOMPARE(refusals.size(), 2);
    const SaveRefusal existing = refusals[0].key == QLatin1String("ECHO_A") ? refusals[0] : refusals[1];
    const SaveRefusal fresh = refusals[0].key == created ? refusals[0] : refusals[1];
    QVERIFY(existing.existing);
    QVERIFY(!fresh.existing);
    QCOMPARE(fresh.key, created);
    QStringList codes;
    for (const LintFinding &finding : existing.findings)
        codes.append(finding.code);
    QVERIFY2(codes.contains(QStringLiteral("H010")), qPrintable(codes.join(u' ')));
    QVERIFY(!fresh.findings.isEmpty());
    const QString text = SaveExplainer::describe(refusals);
    QVERIFY2(text.contains(QLatin1String("ECHO_A was compliant before")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("H010")));
    QVERIFY(text.contains(created));
    // The gate agrees: the save is refused and the drafts stay.
    QVERIFY(m_document->save().isError());
    QVERIFY(m_document->isRowModified(QStringLiteral("ECHO_A")));
}

void TestLintController::registryTotalFollowsEdits()
{
    QSignalSpy total(m_lint.get(), &LintController::registryTotalChanged);
    lintAllAndWait();
    // The registry is summed on the pool after the lint.
    QTRY_VERIFY(!total.isEmpty() && !total.last().first().toString().isEmpty());
    const QString before = total.last().first().toString();
    QVERIFY2(before.startsWith(QLatin1String("Contract registry: "))
                 && before.contains(QLatin1String("tokens")),
             qPrintable(before));
    m_document->setField(
        QStringLiteral("ECHO_A"), QStringLiteral("content"),
        goodRow(QStringLiteral("ECHO_A"))
            .content.replace(QStringLiteral("Echoes"), QStringLiteral("Echoes ") + QString(4000, u'x')));
    QTRY_VERIFY(total.last().first().toString() != before);
    m_document->undoStack()->undo();
    QTRY_COMPARE(total.last().first().toString(), before);
}

// The total is summed from the store; a draft already there when it lands counts as it
// would had it been made after.
void TestLintController::registryTotalCountsDraftsMadeBeforeIt()
{
    QSignalSpy total(m_lint.get(), &LintController::registryTotalChanged);
    const auto lengthen = [this] {
        m_document->setField(
            QStringLiteral("ECHO_A"), QStringLiteral("content"),
            goodRow(QStringLiteral("ECHO_A"))
                .content.replace(QStringLiteral("Echoes"), QStringLiteral("Echoes ") + QString(4000, u'x')));
    };
    lintAllAndWait();
    QTRY_VERIFY(!total.isEmpty() && !total.last().first().toString().isEmpty());
    const QString before = total.last().first().toString();
    lengthen();
    QTRY_VERIFY(total.last().first().toString() != before);
    const QString edited = total.last().first().toString();

    m_document->undoStack()->undo();
    QTRY_COMPARE(total.last().first().toString(), before);
    lengthen();
    total.clear();
    lintAllAndWait();
    QTRY_VERIFY(!total.isEmpty());
    QTRY_COMPARE(total.last().first().toString(), edited);
}

void TestLintController::progressEndsAtEveryRowOnce_data()
{
    QTest::addColumn<bool>("editFirst");
    QTest::addColumn<bool>("newRowFirst");
    QTest::addRow("stored rows only") << false << false;
    QTest::addRow("with an edited row") << true << false;
    QTest::addRow("with a new row") << false << true;
}

// The bar's total is the rows the table shows, drafts and new rows counted once, and the
// run reaches it.
void TestLintController::progressEndsAtEveryRowOnce()
{
    QFETCH(bool, editFirst);
    QFETCH(bool, newRowFirst);
    if (editFirst)
        m_document->setField(QStringLiteral("ECHO_A"), QStringLiteral("category"), QStringLiteral("edited"));
    if (newRowFirst)
        QVERIFY(!m_document->createRow(QStringLiteral("fn")).isEmpty());
    const int rows = m_document->tableModel()->totalRows();
    QSignalSpy progress(m_lint.get(), &LintController::progress);
    lintAllAndWait();
    QTRY_VERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(1).toInt(), rows);
    QCOMPARE(progress.last().at(0).toInt(), rows);
}

void TestLintController::cancelStopsWithoutFindings()
{
    QSignalSpy finished(m_lint.get(), &LintController::finished);
    QSignalSpy cancelled(m_lint.get(), &LintController::cancelled);
    m_lint->lintAll();
    if (!m_lint->isRunning())
        QSKIP("the run finished before it could be cancelled");
    m_lint->cancel();
    QTRY_VERIFY(!m_lint->isRunning());
    QCOMPARE(cancelled.count() + finished.count(), 1);
}

QTEST_GUILESS_MAIN(TestLintController)
#include "tst_lintcontroller.moc"
