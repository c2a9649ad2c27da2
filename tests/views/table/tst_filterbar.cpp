#include "models/contentsearch.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/views/viewtestsupport.h"
#include "views/table/filterbar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>

// The filter bar drives the table model's filter: metadata as typed, content from the
// background search, the type from the combo box.
class TestFilterBar : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void typingFiltersKeyTargetAndCategoryAtOnce();
    void contentMatchesArriveFromTheBackground();
    void typeComboNarrowsByType();
    void escapeClearsTheSearch();
    void nonCompliantCheckShowsRowsWithErrors();
    void anotherDocumentStartsUnfiltered();
    void downOrReturnMovesIntoTheRows_data();
    void downOrReturnMovesIntoTheRows();

private:
    QStringList visibleKeys() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<FilterBar> m_bar;
};

void TestFilterBar::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("d.db")), sampleRows());
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_bar = std::make_unique<FilterBar>();
    m_bar->setDocument(m_document.get());
    m_bar->show();
    QApplication::setActiveWindow(m_bar.get());
    QVERIFY(QTest::qWaitForWindowActive(m_bar.get()));
}

void TestFilterBar::cleanup()
{
    m_bar.reset();
    m_document.reset();
    m_dir.reset();
}

QStringList TestFilterBar::visibleKeys() const
{
    QStringList keys;
    const DirectoryTableModel *model = m_document->tableModel();
    for (int row = 0; row < model->rowCount(); ++row)
        keys.append(model->keyAt(row));
    keys.sort();
    return keys;
}

void TestFilterBar::typingFiltersKeyTargetAndCategoryAtOnce()
{
    QCOMPARE(m_document->tableModel()->rowCount(), 5);
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("ech"));
    // Synchronous: no event loop turn between the keystroke and the narrowed table.
    QCOMPARE(m_document->tableModel()->filter().text, QStringLiteral("ech"));
    QCOMPARE(visibleKeys(), QStringList{QStringLiteral("ECHO_BACK")});

    m_bar->searchEdit()->clear();
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("TIME")); // category, case-insensitive
    QCOMPARE(visibleKeys(), QStringList({QStringLiteral("MORNING"), QStringLiteral("NOW")}));

    m_bar->searchEdit()->clear();
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("api.example")); // target
    QCOMPARE(visibleKeys(), QStringList{QStringLiteral("WEATHER_NOW")});
}

void TestFilterBar::contentMatchesArriveFromTheBackground()
{
    QSignalSpy busy(m_document->contentSearch(), &ContentSearch::busyChanged);
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("needle-in"));
    // Only content holds the text: nothing yet, then the search's answer.
    QCOMPARE(m_document->tableModel()->rowCount(), 0);
    QTRY_COMPARE(visibleKeys(), QStringList{QStringLiteral("WEATHER_NOW")});
    QTRY_VERIFY(!m_bar->isSearchingContent());
    QVERIFY(busy.size() >= 2);
    QCOMPARE(busy.first().first().toBool(), true);
    QCOMPARE(busy.last().first().toBool(), false);
    auto *note = m_bar->findChild<QLabel *>();
    QCOMPARE(note->text(), QStringLiteral("searching content…"));
    QVERIFY(!note->isVisible());
}

void TestFilterBar::typeComboNarrowsByType()
{
    QComboBox *type = m_bar->typeCombo();
    type->setCurrentIndex(type->findData(QStringLiteral("fn")));
    QCOMPARE(m_document->tableModel()->filter().type, QStringLiteral("fn"));
    QCOMPARE(visibleKeys(), QStringList({QStringLiteral("ECHO_BACK"), QStringLiteral("NOW")}));

    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("now"));
    QCOMPARE(visibleKeys(), QStringList{QStringLiteral("NOW")});

    type->setCurrentIndex(0); // All types
    QCOMPARE(m_document->tableModel()->filter().type, QString());
    QCOMPARE(visibleKeys(), QStringList({QStringLiteral("NOW"), QStringLiteral("WEATHER_NOW")}));
    // MORNING's flow names NOW in its content; the background search adds it.
    QTRY_COMPARE(visibleKeys(), QStringList({QStringLiteral("MORNING"), QStringLiteral("NOW"),
                                             QStringLiteral("WEATHER_NOW")}));
}

void TestFilterBar::escapeClearsTheSearch()
{
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("zzz"));
    QCOMPARE(m_document->tableModel()->rowCount(), 0);
    m_bar->focusSearch();
    QTest::keyClick(m_bar->searchEdit(), Qt::Key_Escape);
    QCOMPARE(m_bar->searchEdit()->text(), QString());
    QCOMPARE(m_document->tableModel()->rowCount(), 5);
}

void TestFilterBar::nonCompliantCheckShowsRowsWithErrors()
{
    using Lint = DirectoryTableModel::Lint;
    DirectoryTableModel *model = m_document->tableModel();
    model->setLintLevels({{QStringLiteral("NOW"), Lint::Error}, {QStringLiteral("TRIAGE"), Lint::Warning}},
                         Lint::Clean);
    QTest::mouseClick(m_bar->nonCompliantCheck(), Qt::LeftButton);
    QVERIFY(model->filter().nonCompliantOnly);
    QCOMPARE(visibleKeys(), QStringList{QStringLiteral("NOW")});
    // A re-lint that finds another error shows it at once.
    model->setLintLevel(QStringLiteral("MORNING"), Lint::Error);
    QCOMPARE(visibleKeys(), QStringList({QStringLiteral("MORNING"), QStringLiteral("NOW")}));
    QTest::mouseClick(m_bar->nonCompliantCheck(), Qt::LeftButton);
    QCOMPARE(model->rowCount(), 5);
}

// Another document (a reopen, or a server connected) starts unfiltered: a filter carried
// over would show "0 of 891 rows" on a directory that has them all.
void TestFilterBar::anotherDocumentStartsUnfiltered()
{
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("weather"));
    m_bar->typeCombo()->setCurrentIndex(m_bar->typeCombo()->findData(QStringLiteral("http")));
    QTest::mouseClick(m_bar->nonCompliantCheck(), Qt::LeftButton);
    QVERIFY(m_bar->isFiltering());

    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("other.db")), sampleRows());
    QVERIFY(store);
    auto other = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!other->load().isError());
    m_bar->setDocument(other.get());
    QVERIFY(!m_bar->isFiltering());
    QCOMPARE(m_bar->searchEdit()->text(), QString());
    QCOMPARE(other->tableModel()->filter().text, QString());
    QCOMPARE(other->tableModel()->filter().type, QString());
    QCOMPARE(other->tableModel()->rowCount(), int(sampleRows().size()));
    m_bar->setDocument(nullptr);
}

// Down or Return in the search field asks to move into the rows.
void TestFilterBar::downOrReturnMovesIntoTheRows_data()
{
    QTest::addColumn<int>("key");
    QTest::addRow("Down") << int(Qt::Key_Down);
    QTest::addRow("Return") << int(Qt::Key_Return);
    QTest::addRow("Enter") << int(Qt::Key_Enter);
}

void TestFilterBar::downOrReturnMovesIntoTheRows()
{
    QFETCH(int, key);
    QSignalSpy moved(m_bar.get(), &FilterBar::moveIntoResults);
    QTest::keyClicks(m_bar->searchEdit(), QStringLiteral("no"));
    QTest::keyClick(m_bar->searchEdit(), Qt::Key(key));
    QCOMPARE(moved.size(), 1);
    QTest::keyClick(m_bar->searchEdit(), Qt::Key_Up);
    QCOMPARE(moved.size(), 1);
}

QTEST_MAIN(TestFilterBar)
#include "tst_filterbar.moc"
