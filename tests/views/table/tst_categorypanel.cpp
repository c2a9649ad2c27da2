#include "models/categorycountmodel.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/views/viewtestsupport.h"
#include "views/table/categorypanel.h"

#include <QListView>

// Choosing a category narrows the table, and the choice outlives the list's recounts.
class TestCategoryPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void choosingAnEntrySetsTheCategoryFilter();
    void choiceSurvivesARecount();
    void emptiedCategoryFallsBackToAll();

private:
    void choose(const QString &category, bool all = false);
    QString chosenCategory() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<CategoryPanel> m_panel;
};

void TestCategoryPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("d.db")), sampleRows());
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_panel = std::make_unique<CategoryPanel>();
    m_panel->setDocument(m_document.get());
    m_panel->show();
}

void TestCategoryPanel::cleanup()
{
    m_panel.reset();
    m_document.reset();
    m_dir.reset();
}

void TestCategoryPanel::choose(const QString &category, bool all)
{
    QAbstractItemModel *model = m_panel->listView()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        const bool isAll = index.data(CategoryCountModel::IsAllRole).toBool();
        if (isAll == all && (all || index.data(CategoryCountModel::CategoryRole).toString() == category)) {
            const QRect cell = m_panel->listView()->visualRect(index);
            QTest::mouseClick(m_panel->listView()->viewport(), Qt::LeftButton, {}, cell.center());
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no entry for '%1'").arg(category)));
}

QString TestCategoryPanel::chosenCategory() const
{
    const QModelIndex current = m_panel->listView()->currentIndex();
    if (current.data(CategoryCountModel::IsAllRole).toBool())
        return QStringLiteral("<all>");
    return current.data(CategoryCountModel::CategoryRole).toString();
}

void TestCategoryPanel::choosingAnEntrySetsTheCategoryFilter()
{
    DirectoryTableModel *table = m_document->tableModel();
    QCOMPARE(chosenCategory(), QStringLiteral("<all>"));

    choose(QStringLiteral("time"));
    QCOMPARE(table->filter().category, QStringLiteral("time"));
    QCOMPARE(table->filter().anyCategory, false);
    QCOMPARE(table->rowCount(), 2);

    choose(QString()); // "(no category)"
    QCOMPARE(table->filter().anyCategory, false);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->keyAt(0), QStringLiteral("TRIAGE"));

    choose(QString(), true);
    QCOMPARE(table->filter().anyCategory, true);
    QCOMPARE(table->rowCount(), 5);
}

void TestCategoryPanel::choiceSurvivesARecount()
{
    choose(QStringLiteral("time"));
    // Any edit recounts the categories (a model reset underneath the list).
    m_document->setField(QStringLiteral("ECHO_BACK"), QStringLiteral("category"), QStringLiteral("time"));
    QCOMPARE(chosenCategory(), QStringLiteral("time"));
    QCOMPARE(m_document->tableModel()->rowCount(), 3);
}

void TestCategoryPanel::emptiedCategoryFallsBackToAll()
{
    choose(QStringLiteral("weather"));
    QCOMPARE(m_document->tableModel()->rowCount(), 1);
    m_document->setField(QStringLiteral("WEATHER_NOW"), QStringLiteral("category"), QStringLiteral("sky"));
    // "weather" has no rows left, so the list and the table both show everything.
    QCOMPARE(chosenCategory(), QStringLiteral("<all>"));
    QCOMPARE(m_document->tableModel()->filter().anyCategory, true);
    QCOMPARE(m_document->tableModel()->rowCount(), 5);
}

QTEST_MAIN(TestCategoryPanel)
#include "tst_categorypanel.moc"
