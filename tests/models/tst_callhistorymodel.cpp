#include "models/callhistorymodel.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

// CallHistoryModel: newest first, capped, every change announced correctly; a server's
// calls carry its confirm answer.
class TestCallHistoryModel final : public QObject
{
    Q_OBJECT

private:
    static CallHistoryModel::Entry entry(const QString &key, bool ok, qint64 ms = 5)
    {
        CallHistoryModel::Entry e;
        e.time = QDateTime::currentDateTimeUtc();
        e.key = key;
        e.body = QStringLiteral("a|b");
        e.durationMs = ms;
        e.response = {{QStringLiteral("ok"), ok},
                      {QStringLiteral("ran"), true},
                      {QStringLiteral("result"), QStringLiteral("x")}};
        return e;
    }

private slots:
    void newestFirst()
    {
        CallHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(entry(QStringLiteral("A"), true));
        model.add(entry(QStringLiteral("B"), false, 42));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(CallHistoryModel::ColumnCount));
        QCOMPARE(model.index(0, CallHistoryModel::KeyColumn).data().toString(), QStringLiteral("B"));
        QCOMPARE(model.index(0, CallHistoryModel::OkColumn).data().toString(), QStringLiteral("ERR"));
        QCOMPARE(model.index(0, CallHistoryModel::DurationColumn).data().toString(), QStringLiteral("42 ms"));
        QCOMPARE(model.index(1, CallHistoryModel::OkColumn).data().toString(), QStringLiteral("ok"));
        QCOMPARE(model.index(1, CallHistoryModel::BodyColumn).data().toString(), QStringLiteral("a|b"));
        QCOMPARE(model.entryAt(1)->request().value(QStringLiteral("key")).toString(), QStringLiteral("A"));
        QVERIFY(!model.entryAt(2));
        QVERIFY(!model.entryAt(-1));
    }

    void insertSignalsNameTheTopRow()
    {
        CallHistoryModel model;
        model.add(entry(QStringLiteral("A"), true));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.add(entry(QStringLiteral("B"), true));
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted[0][1].toInt(), 0);
        QCOMPARE(inserted[0][2].toInt(), 0);
    }

    void cappedDropsTheOldest()
    {
        CallHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int i = 0; i < CallHistoryModel::maxEntries + 3; ++i)
            model.add(entry(QStringLiteral("K%1").arg(i), true));
        QCOMPARE(model.rowCount(), CallHistoryModel::maxEntries);
        QCOMPARE(model.entryAt(0)->key, QStringLiteral("K%1").arg(CallHistoryModel::maxEntries + 2));
        QCOMPARE(model.entryAt(model.rowCount() - 1)->key, QStringLiteral("K3"));
    }

    void columnsShowWhatTheResponseSays_data()
    {
        QTest::addColumn<QJsonObject>("response");
        QTest::addColumn<QString>("ok");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("invocation");
        QTest::addColumn<QString>("confirm");
        const QJsonObject proof{{QStringLiteral("ok"), true},
                                {QStringLiteral("invocation_id"), QStringLiteral("inv_0123456789")}};
        QTest::addRow("ran") << QJsonObject{{QStringLiteral("ok"), true},
                                            {QStringLiteral("ran"), true},
                                            {QStringLiteral("result"), QStringLiteral("line one\nline two")},
                                            {QStringLiteral("proof"), proof}}
                             << "ok"
                             << "line one"
                             << "inv_0123456789" << QStringLiteral("asking the server…");
        QTest::addRow("failed") << QJsonObject{{QStringLiteral("ok"), false},
                                               {QStringLiteral("ran"), true},
                                               {QStringLiteral("result"),
                                                QStringLiteral("ERR: upstream 500")},
                                               {QStringLiteral("proof"), proof}}
                                << "ERR"
                                << "ERR: upstream 500"
                                << "inv_0123456789" << QStringLiteral("asking the server…");
        QTest::addRow("refused") << QJsonObject{{QStringLiteral("ok"), false},
                                                {QStringLiteral("ran"), false},
                                                {QStringLiteral("error"), QStringLiteral("unknown key")}}
                                 << "ERR"
                                 << "refused: unknown key"
                                 << "(none)"
                                 << "nothing to confirm";
    }

    void columnsShowWhatTheResponseSays()
    {
        QFETCH(QJsonObject, response);
        CallHistoryModel model;
        model.add({QDateTime::currentDateTimeUtc(), QStringLiteral("K"), QString(), 3, response});
        QTEST(model.index(0, CallHistoryModel::OkColumn).data().toString(), "ok");
        QTEST(model.index(0, CallHistoryModel::ResultColumn).data().toString(), "output");
        QTEST(model.index(0, CallHistoryModel::InvocationColumn).data().toString(), "invocation");
        QTEST(model.index(0, CallHistoryModel::ConfirmColumn).data().toString(), "confirm");
    }

    void outputShowsItsFirstLineAndTellsAllInTheTooltip()
    {
        CallHistoryModel model;
        model.add({QDateTime::currentDateTimeUtc(), QStringLiteral("K"), QString(), 1,
                   QJsonObject{{QStringLiteral("ok"), false},
                               {QStringLiteral("ran"), true},
                               {QStringLiteral("result"), QStringLiteral("first line\nsecond line")}}});
        const QModelIndex output = model.index(0, CallHistoryModel::ResultColumn);
        QCOMPARE(output.data().toString(), QStringLiteral("first line"));
        QCOMPARE(output.data(Qt::ToolTipRole).toString(), QStringLiteral("first line\nsecond line"));
        QVERIFY(output.data(Qt::ForegroundRole).isValid()); // a failure is coloured
        QVERIFY(!model.index(0, CallHistoryModel::KeyColumn).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.headerData(CallHistoryModel::ResultColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Output"));
        QCOMPARE(model.headerData(CallHistoryModel::ConfirmColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Server confirms"));
    }

    void confirmationLandsOnEveryEntryOfItsInvocation()
    {
        CallHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto call = [](const QString &id) {
            return CallHistoryModel::Entry{
                QDateTime::currentDateTimeUtc(), QStringLiteral("K"), QString(), 1,
                QJsonObject{{QStringLiteral("ok"), true},
                            {QStringLiteral("ran"), true},
                            {QStringLiteral("proof"), QJsonObject{{QStringLiteral("invocation_id"), id}}}}};
        };
        model.add(call(QStringLiteral("inv_a")));
        model.add(call(QStringLiteral("inv_b")));
        model.add(call(QStringLiteral("inv_a")));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setConfirmation(QStringLiteral("inv_a"), QStringLiteral("confirmed · valid"));
        QCOMPARE(changed.size(), 2);
        for (const QList<QVariant> &signal : changed) {
            QCOMPARE(signal.at(0).toModelIndex().column(), int(CallHistoryModel::ConfirmColumn));
            QVERIFY(signal.at(0).toModelIndex().row() != 1);
        }
        QCOMPARE(model.entryAt(0)->confirmation, QStringLiteral("confirmed · valid"));
        QCOMPARE(model.entryAt(2)->confirmation, QStringLiteral("confirmed · valid"));
        QCOMPARE(model.index(1, CallHistoryModel::ConfirmColumn).data().toString(),
                 QStringLiteral("asking the server…"));
        changed.clear();
        model.setConfirmation(QString(), QStringLiteral("ignored"));
        QCOMPARE(changed.size(), 0);
    }

    void clearResets()
    {
        CallHistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(entry(QStringLiteral("A"), true));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        model.clear();
    }
};

QTEST_GUILESS_MAIN(TestCallHistoryModel)
#include "tst_callhistorymodel.moc"
