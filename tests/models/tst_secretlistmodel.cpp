#include "dispatch/secrets/memorysecrets.h"
#include "models/secretlistmodel.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

// SecretListModel: one row per secret name with its uses and origins, and the keychain
// column answered asynchronously. The keychain cases need a Secret Service (the test
// runner provides one) and are skipped without it.
class TestSecretListModel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void emptyAtFirst();
    void settingAnInventoryResetsTheModel();
    void cells_data();
    void cells();
    void tooltipsAndAlignment();
    void keychainAnswersFillTheColumn();
    void memoryColumnSaysWhichValuesAreKeptForTheRun();
    void headers_data();
    void headers();
};

namespace {

const QString kInEnvironment = u"CAPDESK_TST_SLM_ENV"_s;
const QString kInKeychain = u"CAPDESK_TST_SLM_IN_KEYCHAIN"_s;
const QString kNotInKeychain = u"CAPDESK_TST_SLM_NOT_IN_KEYCHAIN"_s;

// Names sort: CAPDESK_TST_SLM_ENV, …_IN_KEYCHAIN, …_NOT_IN_KEYCHAIN.
SecretInventory sampleInventory()
{
    SecretInventory inventory = SecretInventory::fromUsage({
        {u"bearer:"_s + kInEnvironment, 3},
        {u"query:api_key="_s + kInEnvironment, 1},
        {u"basic:"_s + kInKeychain, 2},
        {u"query:"_s + kNotInKeychain, 1},
    });
    inventory.checkEnvironment();
    return inventory;
}

} // namespace

void TestSecretListModel::init()
{
    qputenv(kInEnvironment.toLatin1().constData(), "set");
}

void TestSecretListModel::cleanup()
{
    qunsetenv(kInEnvironment.toLatin1().constData());
}

void TestSecretListModel::emptyAtFirst()
{
    SecretListModel model;
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(SecretListModel::ColumnCount));
    QCOMPARE(model.secretAt(0), nullptr);
    QVERIFY(!model.data(model.index(0, 0)).isValid());
    QVERIFY(!model.isCheckingKeychain());
}

void TestSecretListModel::settingAnInventoryResetsTheModel()
{
    SecretListModel model;
    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setInventory(sampleInventory());
    QCOMPARE(aboutToReset.size(), 1);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.inventory().secrets().size(), 3);
    QCOMPARE(model.secretAt(0)->name, kInEnvironment);
    QCOMPARE(model.secretAt(3), nullptr);
    QCOMPARE(model.secretAt(-1), nullptr);
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
    QCOMPARE(model.columnCount(model.index(0, 0)), 0);
    model.setInventory(SecretInventory());
    QCOMPARE(reset.size(), 2);
    QCOMPARE(model.rowCount(), 0);
}

void TestSecretListModel::cells_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("value");
    using M = SecretListModel;
    QTest::addRow("name") << 0 << int(M::NameColumn) << QVariant(kInEnvironment);
    QTest::addRow("rows, summed over forms") << 0 << int(M::RowsColumn) << QVariant(4);
    QTest::addRow("forms, sorted") << 0 << int(M::FormsColumn) << QVariant(u"bearer, query:api_key"_s);
    QTest::addRow("in the environment") << 0 << int(M::EnvironmentColumn) << QVariant(u"yes"_s);
    QTest::addRow("not in the environment") << 1 << int(M::EnvironmentColumn) << QVariant(u"no"_s);
    QTest::addRow("keychain not asked yet") << 1 << int(M::KeychainColumn) << QVariant(u"checking…"_s);
    QTest::addRow("memory not asked: no") << 0 << int(M::MemoryColumn) << QVariant(u"no"_s);
    QTest::addRow("default query parameter") << 2 << int(M::FormsColumn) << QVariant(u"query:key"_s);
    QTest::addRow("one row") << 2 << int(M::RowsColumn) << QVariant(1);
}

void TestSecretListModel::cells()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QVariant, value);
    SecretListModel model;
    model.setInventory(sampleInventory());
    QCOMPARE(model.data(model.index(row, column)), value);
}

void TestSecretListModel::tooltipsAndAlignment()
{
    SecretListModel model;
    // Without checkEnvironment() the keychain state stays Unavailable: no Secret Service.
    SecretInventory unchecked = SecretInventory::fromUsage({{u"bearer:"_s + kInEnvironment, 1}});
    model.setInventory(unchecked);
    QCOMPARE(model.data(model.index(0, SecretListModel::KeychainColumn)).toString(), u"unavailable"_s);
    QVERIFY(model.data(model.index(0, SecretListModel::KeychainColumn), Qt::ToolTipRole)
                .toString()
                .contains(u"kept in memory until Capdesk closes"_s));

    model.setInventory(sampleInventory());
    const QString tip =
        model.data(model.index(0, SecretListModel::EnvironmentColumn), Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(kInEnvironment), qPrintable(tip));
    QVERIFY(!model.data(model.index(1, SecretListModel::EnvironmentColumn), Qt::ToolTipRole).isValid());
    QVERIFY(!model.data(model.index(1, SecretListModel::KeychainColumn), Qt::ToolTipRole).isValid());
    QCOMPARE(
        model.data(model.index(0, SecretListModel::RowsColumn), Qt::TextAlignmentRole).value<Qt::Alignment>(),
        Qt::AlignRight | Qt::AlignVCenter);
    QVERIFY(!model.data(model.index(0, SecretListModel::NameColumn), Qt::TextAlignmentRole).isValid());
    QVERIFY(!model.data(model.index(0, SecretListModel::NameColumn), Qt::DecorationRole).isValid());
}

void TestSecretListModel::keychainAnswersFillTheColumn()
{
    KeychainStore keychain;
    QString why;
    if (!keychain.available(&why))
        QSKIP(qPrintable(u"needs a Secret Service: "_s + why));
    QVERIFY2(keychain.set(kInKeychain, u"value"_s, &why), qPrintable(why));
    QVERIFY(keychain.remove(kNotInKeychain));
    QVERIFY(keychain.remove(kInEnvironment));

    SecretListModel model;
    model.setInventory(sampleInventory());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.checkKeychain(keychain);
    QVERIFY(model.isCheckingKeychain());
    QTRY_VERIFY_WITH_TIMEOUT(!model.isCheckingKeychain(), 10000);
    QVERIFY(keychain.remove(kInKeychain));

    // Each row: once set to checking, once for its answer, on the keychain column only.
    QCOMPARE(changed.size(), 6);
    for (const QList<QVariant> &arguments : changed) {
        QCOMPARE(arguments.at(0).toModelIndex().column(), int(SecretListModel::KeychainColumn));
        QCOMPARE(arguments.at(1).toModelIndex(), arguments.at(0).toModelIndex());
    }
    QCOMPARE(model.data(model.index(0, SecretListModel::KeychainColumn)).toString(), u"no"_s);
    QCOMPARE(model.data(model.index(1, SecretListModel::KeychainColumn)).toString(), u"yes"_s);
    QCOMPARE(model.data(model.index(2, SecretListModel::KeychainColumn)).toString(), u"no"_s);
    QCOMPARE(model.secretAt(1)->keychain, SecretInventory::KeychainState::Present);
}

void TestSecretListModel::memoryColumnSaysWhichValuesAreKeptForTheRun()
{
    MemorySecrets memory;
    memory.set(kNotInKeychain, u"typed-value"_s);
    SecretListModel model;
    model.setInventory(sampleInventory());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.checkMemory(memory);

    // One signal over the whole column, answered at once: memory never waits.
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex(), model.index(0, SecretListModel::MemoryColumn));
    QCOMPARE(changed.first().at(1).toModelIndex(), model.index(2, SecretListModel::MemoryColumn));
    QCOMPARE(model.data(model.index(0, SecretListModel::MemoryColumn)).toString(), u"no"_s);
    QCOMPARE(model.data(model.index(2, SecretListModel::MemoryColumn)).toString(), u"yes"_s);
    QVERIFY(model.secretAt(2)->inMemory);
    QVERIFY(model.data(model.index(2, SecretListModel::MemoryColumn), Qt::ToolTipRole)
                .toString()
                .contains(u"until Capdesk closes"_s));
    QVERIFY(!model.data(model.index(0, SecretListModel::MemoryColumn), Qt::ToolTipRole).isValid());
    // The model holds whether, never what.
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column)
            for (int role : {Qt::DisplayRole, Qt::ToolTipRole})
                QVERIFY(!model.data(model.index(row, column), role).toString().contains(u"typed-value"_s));

    memory.remove(kNotInKeychain);
    model.checkMemory(memory);
    QCOMPARE(model.data(model.index(2, SecretListModel::MemoryColumn)).toString(), u"no"_s);
}

void TestSecretListModel::headers_data()
{
    QTest::addColumn<int>("section");
    QTest::addColumn<QString>("title");
    using M = SecretListModel;
    QTest::addRow("name") << int(M::NameColumn) << u"Secret"_s;
    QTest::addRow("rows") << int(M::RowsColumn) << u"Rows"_s;
    QTest::addRow("forms") << int(M::FormsColumn) << u"Used as"_s;
    QTest::addRow("environment") << int(M::EnvironmentColumn) << u"Environment"_s;
    QTest::addRow("keychain") << int(M::KeychainColumn) << u"Keychain"_s;
    QTest::addRow("in memory") << int(M::MemoryColumn) << u"In memory"_s;
}

void TestSecretListModel::headers()
{
    QFETCH(int, section);
    QFETCH(QString, title);
    SecretListModel model;
    QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), title);
    QVERIFY(!model.headerData(section, Qt::Vertical).isValid());
}

QTEST_GUILESS_MAIN(TestSecretListModel)
#include "tst_secretlistmodel.moc"
