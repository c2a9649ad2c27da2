#include "dispatch/store/sqldirectorystore.h"
#include "models/directorytablemodel.h"
#include "tests/support/fixturegenerator.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

// The table against plain SQL over a generated production-shaped directory: whatever the
// filter or sort, the model must show exactly the rows and order SQLite computes.
class TestDirectoryTableModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void passesTheModelTester();
    void showsEveryRowSortedByKey();
    void filtersLikeSql_data();
    void filtersLikeSql();
    void sortsEveryColumnLikeSql_data();
    void sortsEveryColumnLikeSql();
    void contentMatchesJoinTheFilter();
    void staleContentMatchesAreIgnored();
    void selectionFollowsItsRowThroughSortAndFilter();
    void upsertAndRemoveKeepTheOrder();

private:
    QStringList sqlKeys(const QString &where, const QString &orderBy = QStringLiteral("key")) const;
    QStringList modelKeys() const;

    QTemporaryDir m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    DirectoryTableModel m_model;
};

void TestDirectoryTableModel::initTestCase()
{
    const QString path = m_dir.filePath(QStringLiteral("gen.db"));
    const QString error = FixtureGenerator::makeDatabase(path, 891);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    auto opened = SqlDirectoryStore::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
    QVERIFY(!m_model.load(*m_store).isError());
}

QStringList TestDirectoryTableModel::sqlKeys(const QString &where, const QString &orderBy) const
{
    QSqlQuery query(m_store->database());
    const QString sql = QStringLiteral("SELECT key FROM directory %1 ORDER BY %2")
                            .arg(where.isEmpty() ? QString() : QStringLiteral("WHERE ") + where, orderBy);
    if (!query.exec(sql))
        qFatal("bad test SQL");
    QStringList keys;
    while (query.next())
        keys.append(query.value(0).toString());
    return keys;
}

QStringList TestDirectoryTableModel::modelKeys() const
{
    QStringList keys;
    for (int row = 0; row < m_model.rowCount(); ++row)
        keys.append(m_model.keyAt(row));
    return keys;
}

void TestDirectoryTableModel::passesTheModelTester()
{
    QAbstractItemModelTester tester(&m_model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_model.setFilter({QStringLiteral("get"), {}, {}, true});
    m_model.sort(DirectoryTableModel::TargetColumn, Qt::DescendingOrder);
    m_model.upsert({QStringLiteral("GET_TESTER_ROW"), QStringLiteral("fn"), QStringLiteral("tools"),
                    QStringLiteral("echo"), QStringLiteral("2026-01-01T00:00:00.000Z"), true, false},
                   true);
    m_model.remove(QStringLiteral("GET_TESTER_ROW"));
    m_model.setContentMatches(QStringLiteral("get"), {QStringLiteral("NOW")});
    m_model.setFilter({});
    m_model.sort(DirectoryTableModel::KeyColumn, Qt::AscendingOrder);
}

void TestDirectoryTableModel::showsEveryRowSortedByKey()
{
    QCOMPARE(m_model.totalRows(), 891);
    QCOMPARE(modelKeys(), sqlKeys({}));
}

void TestDirectoryTableModel::filtersLikeSql_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("category");
    QTest::addColumn<bool>("anyCategory");
    QTest::addColumn<QString>("where");
    QTest::addRow("key text, any case")
        << "order"
        << ""
        << "" << true << "(key LIKE '%order%' OR target LIKE '%order%' OR category LIKE '%order%')";
    QTest::addRow("target host")
        << "api.weather"
        << ""
        << "" << true
        << "(key LIKE '%api.weather%' OR target LIKE '%api.weather%' OR category LIKE '%api.weather%')";
    QTest::addRow("type only") << ""
                               << "flow"
                               << "" << true << "type = 'flow'";
    QTest::addRow("category only") << ""
                                   << ""
                                   << "grok" << false << "category = 'grok'";
    QTest::addRow("no category") << ""
                                 << ""
                                 << "" << false << "(category IS NULL OR category = '')";
    QTest::addRow("all three") << "list"
                               << "http"
                               << "crm" << false
                               << "type = 'http' AND category = 'crm' AND "
                                  "(key LIKE '%list%' OR target LIKE '%list%' OR category LIKE '%list%')";
    QTest::addRow("nothing matches") << "zzzz-nothing"
                                     << ""
                                     << "" << true << "0";
}

void TestDirectoryTableModel::filtersLikeSql()
{
    QFETCH(QString, text);
    QFETCH(QString, type);
    QFETCH(QString, category);
    QFETCH(bool, anyCategory);
    QFETCH(QString, where);
    QSignalSpy counts(&m_model, &DirectoryTableModel::countsChanged);
    m_model.setFilter({text, type, category, anyCategory});
    const QStringList expected = sqlKeys(where);
    QCOMPARE(modelKeys(), expected);
    QCOMPARE(counts.size(), 1);
    QCOMPARE(counts.first().at(0).toInt(), int(expected.size()));
    QCOMPARE(counts.first().at(1).toInt(), 891);
    m_model.setFilter({});
}

void TestDirectoryTableModel::sortsEveryColumnLikeSql_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QString>("orderBy");
    QTest::addRow("key desc") << int(DirectoryTableModel::KeyColumn) << int(Qt::DescendingOrder)
                              << "key DESC";
    QTest::addRow("category") << int(DirectoryTableModel::CategoryColumn) << int(Qt::AscendingOrder)
                              << "coalesce(category,'') , key";
    QTest::addRow("target desc") << int(DirectoryTableModel::TargetColumn) << int(Qt::DescendingOrder)
                                 << "coalesce(target,'') DESC, key DESC";
    QTest::addRow("updated") << int(DirectoryTableModel::UpdatedColumn) << int(Qt::AscendingOrder)
                             << "updated_at, key";
    QTest::addRow("enabled") << int(DirectoryTableModel::EnabledColumn) << int(Qt::AscendingOrder)
                             << "coalesce(enabled,1) != 0, key";
    QTest::addRow("type")
        << int(DirectoryTableModel::TypeColumn) << int(Qt::AscendingOrder)
        << "CASE type WHEN 'fn' THEN 0 WHEN 'http' THEN 1 WHEN 'agent' THEN 2 ELSE 3 END, key";
}

void TestDirectoryTableModel::sortsEveryColumnLikeSql()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QString, orderBy);
    m_model.sort(column, Qt::SortOrder(order));
    QCOMPARE(modelKeys(), sqlKeys({}, orderBy));
    m_model.sort(DirectoryTableModel::KeyColumn);
}

void TestDirectoryTableModel::contentMatchesJoinTheFilter()
{
    // "concierge" appears only in PROMPT_LAB_AGENT's content, never in key/target/category.
    m_model.setFilter({QStringLiteral("concierge"), {}, {}, true});
    QCOMPARE(m_model.rowCount(), 0);
    const StoreResult<QStringList> hits = m_store->keysWithContent(QStringLiteral("concierge"));
    QVERIFY(hits.ok());
    m_model.setContentMatches(QStringLiteral("concierge"), hits.value());
    QCOMPARE(modelKeys(), QStringList{QStringLiteral("PROMPT_LAB_AGENT")});
    m_model.setFilter({});
}

void TestDirectoryTableModel::staleContentMatchesAreIgnored()
{
    m_model.setFilter({QStringLiteral("concierge"), {}, {}, true});
    m_model.setContentMatches(QStringLiteral("concier"), {QStringLiteral("NOW")});
    QCOMPARE(m_model.rowCount(), 0);
    m_model.setFilter({});
}

void TestDirectoryTableModel::selectionFollowsItsRowThroughSortAndFilter()
{
    const int row = m_model.rowOfKey(QStringLiteral("ROUTER"));
    QVERIFY(row >= 0);
    const QPersistentModelIndex selected(m_model.index(row, DirectoryTableModel::TargetColumn));
    m_model.sort(DirectoryTableModel::UpdatedColumn, Qt::DescendingOrder);
    QVERIFY(selected.isValid());
    QCOMPARE(selected.data(DirectoryTableModel::KeyRole).toString(), QStringLiteral("ROUTER"));
    QCOMPARE(selected.column(), int(DirectoryTableModel::TargetColumn));
    m_model.setFilter({QStringLiteral("rout"), {}, {}, true});
    QCOMPARE(selected.data(DirectoryTableModel::KeyRole).toString(), QStringLiteral("ROUTER"));
    m_model.setFilter({QStringLiteral("zzzz"), {}, {}, true});
    QVERIFY(!selected.isValid());
    m_model.setFilter({});
    m_model.sort(DirectoryTableModel::KeyColumn);
}

void TestDirectoryTableModel::upsertAndRemoveKeepTheOrder()
{
    m_model.sort(DirectoryTableModel::CategoryColumn);
    m_model.upsert({QStringLiteral("AAA_FIRST_KEY"), QStringLiteral("http"),
                    QStringLiteral("zzz_last_category"), QStringLiteral("GET https://x.example/"),
                    QStringLiteral("2026-01-01T00:00:00.000Z"), true, false},
                   true);
    QCOMPARE(m_model.keyAt(m_model.rowCount() - 1), QStringLiteral("AAA_FIRST_KEY"));
    QVERIFY(m_model.index(m_model.rowCount() - 1, 0).data(DirectoryTableModel::ModifiedRole).toBool());
    m_model.upsert({QStringLiteral("AAA_FIRST_KEY"), QStringLiteral("http"), QString(), QString(), QString(),
                    true, false},
                   false);
    QCOMPARE(m_model.keyAt(0), QStringLiteral("AAA_FIRST_KEY"));
    QCOMPARE(m_model.totalRows(), 892);
    m_model.remove(QStringLiteral("AAA_FIRST_KEY"));
    QCOMPARE(m_model.totalRows(), 891);
    QCOMPARE(m_model.rowOfKey(QStringLiteral("AAA_FIRST_KEY")), -1);
    m_model.sort(DirectoryTableModel::KeyColumn);
    QCOMPARE(modelKeys(), sqlKeys({}));
}

QTEST_GUILESS_MAIN(TestDirectoryTableModel)
#include "tst_directorytablemodel.moc"
