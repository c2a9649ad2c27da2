#include "models/invocationhistorymodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// InvocationHistoryModel: newest first, capped, every change announced correctly.
class TestInvocationHistoryModel final : public QObject
{
    Q_OBJECT

private:
    static InvocationHistoryModel::Entry entry(const QString &key, bool ok, qint64 ms = 5)
    {
        InvocationHistoryModel::Entry e;
        e.time = QDateTime::currentDateTimeUtc();
        e.key = key;
        e.body = QStringLiteral("a|b");
        e.durationMs = ms;
        e.response = {{QStringLiteral("ok"), ok}, {QStringLiteral("ran"), true}, {QStringLiteral("result"), QStringLiteral("x")}};
        return e;
    }

private slots:
    void newestFirst()
    {
        InvocationHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(entry(QStringLiteral("A"), true));
        model.add(entry(QStringLiteral("B"), false, 42));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(InvocationHistoryModel::ColumnCount));
        QCOMPARE(model.index(0, InvocationHistoryModel::KeyColumn).data().toString(), QStringLiteral("B"));
        QCOMPARE(model.index(0, InvocationHistoryModel::OkColumn).data().toString(), QStringLiteral("ERR"));
        QCOMPARE(model.index(0, InvocationHistoryModel::DurationColumn).data().toString(), QStringLiteral("42 ms"));
        QCOMPARE(model.index(1, InvocationHistoryModel::OkColumn).data().toString(), QStringLiteral("ok"));
        QCOMPARE(model.index(1, InvocationHistoryModel::BodyColumn).data().toString(), QStringLiteral("a|b"));
        QCOMPARE(model.entryAt(1)->request().value(QStringLiteral("key")).toString(), QStringLiteral("A"));
        QVERIFY(!model.entryAt(2));
        QVERIFY(!model.entryAt(-1));
    }

    void insertSignalsNameTheTopRow()
    {
        InvocationHistoryModel model;
        model.add(entry(QStringLiteral("A"), true));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.add(entry(QStringLiteral("B"), true));
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted[0][1].toInt(), 0);
        QCOMPARE(inserted[0][2].toInt(), 0);
    }

    void cappedDropsTheOldest()
    {
        InvocationHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int i = 0; i < InvocationHistoryModel::maxEntries + 3; ++i)
            model.add(entry(QStringLiteral("K%1").arg(i), true));
        QCOMPARE(model.rowCount(), InvocationHistoryModel::maxEntries);
        QCOMPARE(model.entryAt(0)->key, QStringLiteral("K%1").arg(InvocationHistoryModel::maxEntries + 2));
        QCOMPARE(model.entryAt(model.rowCount() - 1)->key, QStringLiteral("K3"));
    }

    void clearResets()
    {
        InvocationHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(entry(QStringLiteral("A"), true));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        model.clear();
    }
};

QTEST_GUILESS_MAIN(TestInvocationHistoryModel)
#include "tst_invocationhistorymodel.moc"
