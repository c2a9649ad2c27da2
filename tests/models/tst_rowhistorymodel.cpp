#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/rowhistorymodel.h"
#include "tests/support/samplerow.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

// RowHistoryModel: one key's events, newest first, read again on reload().
class TestRowHistoryModel final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void showsOneKeysEventsNewestFirst();
    void reloadPicksUpNewWrites();
    void emptyWithoutKeyOrStore();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    std::shared_ptr<SqlDirectoryStore> m_store;
};

void TestRowHistoryModel::init()
{
    auto opened = SqlDirectoryStore::open(m_dir.filePath(QStringLiteral("h%1.db").arg(++m_counter)));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
}

void TestRowHistoryModel::showsOneKeysEventsNewestFirst()
{
    QVERIFY(m_store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QVERIFY(m_store->create(sampleRow(QStringLiteral("OTHER"))).ok());
    m_store->setActor(QStringLiteral("owner:cli"));
    QVERIFY(
        m_store->patch(QStringLiteral("ECHO"), {{QStringLiteral("target"), QStringLiteral("upper")}}).ok());
    QVERIFY(!m_store->remove(QStringLiteral("ECHO")).isError());

    RowHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHistory(std::make_shared<DirectoryHistory>(m_store));
    model.setKey(QStringLiteral("ECHO"));
    QCOMPARE(model.key(), QStringLiteral("ECHO"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(RowHistoryModel::ColumnCount));

    const QStringList actions{QStringLiteral("delete"), QStringLiteral("patch"), QStringLiteral("create")};
    const QStringList actors{QStringLiteral("owner:cli"), QStringLiteral("owner:cli"),
                             QStringLiteral("owner:local")};
    for (int row = 0; row < 3; ++row) {
        QCOMPARE(model.index(row, RowHistoryModel::ActionColumn).data().toString(), actions.at(row));
        QCOMPARE(model.index(row, RowHistoryModel::ActorColumn).data().toString(), actors.at(row));
        QCOMPARE(model.index(row, RowHistoryModel::TimeColumn).data().toString(), model.eventAt(row)->at);
        QVERIFY(model.index(row, RowHistoryModel::TimeColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(model.eventAt(row)->hash));
    }
    QCOMPARE(model.eventAt(0)->seq, 4);
    QVERIFY(model.eventAt(0)->after.isNull());
    QCOMPARE(model.eventAt(1)->after.toObject().value(QStringLiteral("target")).toString(),
             QStringLiteral("upper"));
    QVERIFY(model.eventAt(2)->before.isNull());
    QVERIFY(!model.eventAt(3));
    QVERIFY(!model.eventAt(-1));
    QCOMPARE(model.headerData(RowHistoryModel::ActorColumn, Qt::Horizontal).toString(),
             QStringLiteral("Actor"));
}

void TestRowHistoryModel::reloadPicksUpNewWrites()
{
    RowHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHistory(std::make_shared<DirectoryHistory>(m_store));
    model.setKey(QStringLiteral("ECHO"));
    QCOMPARE(model.rowCount(), 0);

    QVERIFY(m_store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    QCOMPARE(model.rowCount(), 0); // until told
    QVERIFY(!model.reload().isError());
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(m_store->patch(QStringLiteral("ECHO"), {{QStringLiteral("enabled"), 0}}).ok());
    QVERIFY(!model.reload().isError());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, RowHistoryModel::ActionColumn).data().toString(), QStringLiteral("patch"));
}

void TestRowHistoryModel::emptyWithoutKeyOrStore()
{
    QVERIFY(m_store->create(sampleRow(QStringLiteral("ECHO"))).ok());
    RowHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setKey(QStringLiteral("ECHO"));
    QCOMPARE(model.rowCount(), 0);
    model.setHistory(std::make_shared<DirectoryHistory>(m_store));
    QCOMPARE(model.rowCount(), 1);
    model.setKey(QString());
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestRowHistoryModel)
#include "tst_rowhistorymodel.moc"
