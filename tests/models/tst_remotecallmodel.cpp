#include "models/remotecallmodel.h"

#include <QBrush>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

// RemoteCallModel: the calls made on a server from this window, newest first, capped, each
// with the server's confirm answer filled in later.
class TestRemoteCallModel : public QObject
{
    Q_OBJECT

private slots:
    void emptyAtFirst();
    void addInsertsAtTheTop();
    void cells_data();
    void cells();
    void failedResultsAreColoured();
    void confirmationUpdatesEveryEntryOfTheCall();
    void oldestEntryGoesAtTheCap();
    void clearResets();
    void headers_data();
    void headers();
};

namespace {

const QDateTime kTime = QDateTime::fromString(u"2026-07-26T12:34:56.000Z"_s, Qt::ISODateWithMs);

RemoteCallModel::Entry entry(const QString &key, const QString &invocationId = QString(), bool ok = true)
{
    RemoteCallModel::Entry entry;
    entry.time = kTime;
    entry.key = key;
    entry.body = u"body of "_s + key;
    entry.result = ok ? u"first line\nsecond line"_s : u"ERR: refused"_s;
    entry.ok = ok;
    entry.invocationId = invocationId;
    return entry;
}

} // namespace

void TestRemoteCallModel::emptyAtFirst()
{
    RemoteCallModel model;
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(RemoteCallModel::ColumnCount));
    QCOMPARE(model.entryAt(0), nullptr);
    QVERIFY(!model.data(model.index(0, 0)).isValid());
}

void TestRemoteCallModel::addInsertsAtTheTop()
{
    RemoteCallModel model;
    QSignalSpy aboutToInsert(&model, &QAbstractItemModel::rowsAboutToBeInserted);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.add(entry(u"FIRST"_s));
    model.add(entry(u"SECOND"_s));
    QCOMPARE(aboutToInsert.size(), 2);
    QCOMPARE(inserted.size(), 2);
    for (const QList<QVariant> &arguments : inserted) {
        QCOMPARE(arguments.at(1).toInt(), 0);
        QCOMPARE(arguments.at(2).toInt(), 0);
    }
    QCOMPARE(reset.size(), 0);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.data(model.index(0, RemoteCallModel::KeyColumn)).toString(), u"SECOND"_s);
    QCOMPARE(model.data(model.index(1, RemoteCallModel::KeyColumn)).toString(), u"FIRST"_s);
    QCOMPARE(model.entryAt(1)->key, u"FIRST"_s);
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
    QCOMPARE(model.columnCount(model.index(0, 0)), 0);
}

void TestRemoteCallModel::cells_data()
{
    QTest::addColumn<QString>("invocationId");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("role");
    QTest::addColumn<QString>("text");
    using M = RemoteCallModel;
    const QString id = u"inv_1"_s;
    const int display = Qt::DisplayRole;
    const int tip = Qt::ToolTipRole;
    QTest::addRow("time, local") << id << int(M::TimeColumn) << display
                                 << QLocale().toString(kTime.toLocalTime().time(), QLocale::LongFormat);
    QTest::addRow("key") << id << int(M::KeyColumn) << display << u"ECHO"_s;
    QTest::addRow("key tooltip") << id << int(M::KeyColumn) << tip << u"ECHO"_s;
    QTest::addRow("body") << id << int(M::BodyColumn) << display << u"body of ECHO"_s;
    QTest::addRow("result: its first line") << id << int(M::ResultColumn) << display << u"first line"_s;
    QTest::addRow("result tooltip: all of it")
        << id << int(M::ResultColumn) << tip << u"first line\nsecond line"_s;
    QTest::addRow("invocation") << id << int(M::InvocationColumn) << display << id;
    QTest::addRow("no invocation") << QString() << int(M::InvocationColumn) << display << u"(none)"_s;
    QTest::addRow("confirm pending") << id << int(M::ConfirmColumn) << display << u"asking the server…"_s;
    QTest::addRow("nothing to confirm")
        << QString() << int(M::ConfirmColumn) << display << u"nothing to confirm"_s;
}

void TestRemoteCallModel::cells()
{
    QFETCH(QString, invocationId);
    QFETCH(int, column);
    QFETCH(int, role);
    QFETCH(QString, text);
    RemoteCallModel model;
    model.add(entry(u"ECHO"_s, invocationId));
    QCOMPARE(model.data(model.index(0, column), role).toString(), text);
    QVERIFY(!model.data(model.index(0, column), Qt::ForegroundRole).isValid());
}

void TestRemoteCallModel::failedResultsAreColoured()
{
    RemoteCallModel model;
    model.add(entry(u"BAD"_s, QString(), false));
    const QVariant foreground = model.data(model.index(0, RemoteCallModel::ResultColumn), Qt::ForegroundRole);
    QVERIFY(foreground.canConvert<QBrush>());
    QCOMPARE(foreground.value<QBrush>().color(), QColor(0xb3, 0x26, 0x1e));
    QVERIFY(!model.data(model.index(0, RemoteCallModel::KeyColumn), Qt::ForegroundRole).isValid());
}

void TestRemoteCallModel::confirmationUpdatesEveryEntryOfTheCall()
{
    RemoteCallModel model;
    model.add(entry(u"A"_s, u"inv_a"_s));
    model.add(entry(u"B"_s, u"inv_b"_s));
    model.add(entry(u"A"_s, u"inv_a"_s));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setConfirmation(u"inv_a"_s, u"confirmed"_s);
    QCOMPARE(changed.size(), 2);
    for (const QList<QVariant> &arguments : changed) {
        const QModelIndex from = arguments.at(0).toModelIndex();
        const QModelIndex to = arguments.at(1).toModelIndex();
        QCOMPARE(from, to);
        QCOMPARE(from.column(), int(RemoteCallModel::ConfirmColumn));
        QVERIFY(from.row() == 0 || from.row() == 2);
    }
    QCOMPARE(model.data(model.index(0, RemoteCallModel::ConfirmColumn)).toString(), u"confirmed"_s);
    QCOMPARE(model.data(model.index(1, RemoteCallModel::ConfirmColumn)).toString(), u"asking the server…"_s);
    QCOMPARE(model.data(model.index(2, RemoteCallModel::ConfirmColumn)).toString(), u"confirmed"_s);
    // An empty id names no call, not the calls that ran nothing.
    model.add(entry(u"NOTHING"_s));
    changed.clear();
    model.setConfirmation(QString(), u"confirmed"_s);
    QCOMPARE(changed.size(), 0);
    QCOMPARE(model.entryAt(0)->confirmation, QString());
}

void TestRemoteCallModel::oldestEntryGoesAtTheCap()
{
    RemoteCallModel model;
    for (int i = 0; i < RemoteCallModel::maxEntries; ++i)
        model.add(entry(u"K%1"_s.arg(i)));
    QCOMPARE(model.rowCount(), RemoteCallModel::maxEntries);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.add(entry(u"NEWEST"_s));
    QCOMPARE(model.rowCount(), RemoteCallModel::maxEntries);
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.at(0).at(1).toInt(), RemoteCallModel::maxEntries - 1);
    QCOMPARE(removed.at(0).at(2).toInt(), RemoteCallModel::maxEntries - 1);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(model.entryAt(0)->key, u"NEWEST"_s);
    QCOMPARE(model.entryAt(RemoteCallModel::maxEntries - 1)->key, u"K1"_s);
}

void TestRemoteCallModel::clearResets()
{
    RemoteCallModel model;
    model.add(entry(u"A"_s));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.clear();
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.entryAt(0), nullptr);
}

void TestRemoteCallModel::headers_data()
{
    QTest::addColumn<int>("section");
    QTest::addColumn<QString>("title");
    using M = RemoteCallModel;
    QTest::addRow("time") << int(M::TimeColumn) << u"Time"_s;
    QTest::addRow("key") << int(M::KeyColumn) << u"Key"_s;
    QTest::addRow("body") << int(M::BodyColumn) << u"Body"_s;
    QTest::addRow("result") << int(M::ResultColumn) << u"Result"_s;
    QTest::addRow("invocation") << int(M::InvocationColumn) << u"Invocation"_s;
    QTest::addRow("confirm") << int(M::ConfirmColumn) << u"Server confirms"_s;
}

void TestRemoteCallModel::headers()
{
    QFETCH(int, section);
    QFETCH(QString, title);
    RemoteCallModel model;
    QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), title);
}

QTEST_GUILESS_MAIN(TestRemoteCallModel)
#include "tst_remotecallmodel.moc"
