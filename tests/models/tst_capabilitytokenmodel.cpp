#include "models/capabilitytokenmodel.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

// CapabilityTokenModel: one row per token, its scope, pin, expiry and status as the tokens
// dialog shows them, judged against the moment the list was read.
class TestCapabilityTokenModel : public QObject
{
    Q_OBJECT

private slots:
    void emptyUntilSet();
    void settingTokensResetsTheModel();
    void cells_data();
    void cells();
    void pinnedTooltipHasTheWholeFingerprint();
    void statusIsJudgedAtTheReadMoment_data();
    void statusIsJudgedAtTheReadMoment();
    void lookups();
    void headers_data();
    void headers();
};

namespace {

const QDateTime kNow = QDateTime::fromString(u"2026-07-26T12:00:00.000Z"_s, Qt::ISODateWithMs);
const QString kFingerprint = u"3f9a0c2b7d1e44aa90c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3"_s;

CapabilityToken token(const QString &id)
{
    CapabilityToken token;
    token.id = id;
    token.label = u"label of "_s + id;
    token.audience = u"ci-bot"_s;
    token.allowedKeys = {u"ECHO"_s, u"SHOUT"_s};
    token.createdAt = u"2026-07-01T00:00:00.000Z"_s;
    return token;
}

QList<CapabilityToken> sampleTokens()
{
    CapabilityToken plain = token(u"tok_plain001"_s);
    CapabilityToken pinned = token(u"tok_pinned01"_s);
    pinned.allowedKeys = {u"ECHO"_s};
    pinned.pinnedContract = kFingerprint;
    pinned.ownerGate = true;
    pinned.riskCeiling = u"high"_s;
    pinned.expiresAt = u"2026-08-01T00:00:00.000Z"_s;
    CapabilityToken categories = token(u"tok_categor1"_s);
    categories.allowedKeys.clear();
    categories.allowedCategories = {u"time"_s};
    categories.revokedAt = u"2026-07-20T00:00:00.000Z"_s;
    return {plain, pinned, categories};
}

} // namespace

void TestCapabilityTokenModel::emptyUntilSet()
{
    CapabilityTokenModel model;
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(CapabilityTokenModel::ColumnCount));
    QCOMPARE(model.tokenAt(0), nullptr);
    QVERIFY(!model.data(model.index(0, 0)).isValid());
}

void TestCapabilityTokenModel::settingTokensResetsTheModel()
{
    CapabilityTokenModel model;
    QSignalSpy aboutToReset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setTokens(sampleTokens(), kNow);
    QCOMPARE(aboutToReset.size(), 1);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(model.rowCount(), 3);
    model.setTokens({token(u"tok_only0001"_s)}, kNow);
    QCOMPARE(reset.size(), 2);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.data(model.index(0, CapabilityTokenModel::IdColumn)).toString(), u"tok_only0001"_s);
    // A child index has no rows or columns: this is a flat table.
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
    QCOMPARE(model.columnCount(model.index(0, 0)), 0);
}

void TestCapabilityTokenModel::cells_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    using M = CapabilityTokenModel;
    QTest::addRow("id") << 0 << int(M::IdColumn) << u"tok_plain001"_s;
    QTest::addRow("label") << 0 << int(M::LabelColumn) << u"label of tok_plain001"_s;
    QTest::addRow("audience") << 0 << int(M::AudienceColumn) << u"ci-bot"_s;
    QTest::addRow("scope by keys") << 0 << int(M::ScopeColumn) << u"keys ECHO, SHOUT"_s;
    QTest::addRow("risk, default") << 0 << int(M::RiskColumn) << u"low"_s;
    QTest::addRow("not pinned") << 0 << int(M::PinnedColumn) << u"no"_s;
    QTest::addRow("never expires") << 0 << int(M::ExpiryColumn) << u"never"_s;
    QTest::addRow("active") << 0 << int(M::StatusColumn) << u"active"_s;
    QTest::addRow("scope with the owner gate") << 1 << int(M::ScopeColumn) << u"keys ECHO; owner present"_s;
    QTest::addRow("risk high") << 1 << int(M::RiskColumn) << u"high"_s;
    QTest::addRow("pinned: the first twelve characters") << 1 << int(M::PinnedColumn) << u"3f9a0c2b7d1e…"_s;
    QTest::addRow("expiry") << 1 << int(M::ExpiryColumn) << u"2026-08-01T00:00:00.000Z"_s;
    QTest::addRow("scope by category") << 2 << int(M::ScopeColumn) << u"categories time"_s;
    QTest::addRow("revoked") << 2 << int(M::StatusColumn) << u"revoked"_s;
}

void TestCapabilityTokenModel::cells()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, text);
    CapabilityTokenModel model;
    model.setTokens(sampleTokens(), kNow);
    const QModelIndex index = model.index(row, column);
    QCOMPARE(model.data(index).toString(), text);
    QCOMPARE(model.data(index, Qt::DisplayRole).toString(), text);
    QVERIFY(!model.data(index, Qt::DecorationRole).isValid());
}

void TestCapabilityTokenModel::pinnedTooltipHasTheWholeFingerprint()
{
    CapabilityTokenModel model;
    model.setTokens(sampleTokens(), kNow);
    const QString tip =
        model.data(model.index(1, CapabilityTokenModel::PinnedColumn), Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(kFingerprint), qPrintable(tip));
    // No tooltip where nothing is pinned, nor on other columns.
    QVERIFY(!model.data(model.index(0, CapabilityTokenModel::PinnedColumn), Qt::ToolTipRole).isValid());
    QVERIFY(!model.data(model.index(1, CapabilityTokenModel::IdColumn), Qt::ToolTipRole).isValid());
}

void TestCapabilityTokenModel::statusIsJudgedAtTheReadMoment_data()
{
    QTest::addColumn<QString>("expiresAt");
    QTest::addColumn<QString>("status");
    QTest::addRow("expires later") << u"2026-07-26T12:00:01.000Z"_s << u"active"_s;
    QTest::addRow("expired a moment before") << u"2026-07-26T11:59:59.000Z"_s << u"expired"_s;
    QTest::addRow("unparsable counts as passed") << u"soon"_s << u"expired"_s;
}

void TestCapabilityTokenModel::statusIsJudgedAtTheReadMoment()
{
    QFETCH(QString, expiresAt);
    QFETCH(QString, status);
    CapabilityToken expiring = token(u"tok_expiring"_s);
    expiring.expiresAt = expiresAt;
    CapabilityTokenModel model;
    model.setTokens({expiring}, kNow);
    QCOMPARE(model.data(model.index(0, CapabilityTokenModel::StatusColumn)).toString(), status);
    QCOMPARE(model.data(model.index(0, CapabilityTokenModel::ExpiryColumn)).toString(), expiresAt);
}

void TestCapabilityTokenModel::lookups()
{
    CapabilityTokenModel model;
    model.setTokens(sampleTokens(), kNow);
    QCOMPARE(model.rowOf(u"tok_pinned01"_s), 1);
    QCOMPARE(model.rowOf(u"tok_missing1"_s), -1);
    QVERIFY(model.tokenAt(2));
    QCOMPARE(model.tokenAt(2)->id, u"tok_categor1"_s);
    QCOMPARE(model.tokenAt(3), nullptr);
    QCOMPARE(model.tokenAt(-1), nullptr);
}

void TestCapabilityTokenModel::headers_data()
{
    QTest::addColumn<int>("section");
    QTest::addColumn<QString>("title");
    using M = CapabilityTokenModel;
    QTest::addRow("id") << int(M::IdColumn) << u"Id"_s;
    QTest::addRow("label") << int(M::LabelColumn) << u"Label"_s;
    QTest::addRow("audience") << int(M::AudienceColumn) << u"Audience"_s;
    QTest::addRow("scope") << int(M::ScopeColumn) << u"Scope"_s;
    QTest::addRow("risk") << int(M::RiskColumn) << u"Risk ceiling"_s;
    QTest::addRow("pinned") << int(M::PinnedColumn) << u"Pinned"_s;
    QTest::addRow("expiry") << int(M::ExpiryColumn) << u"Expires"_s;
    QTest::addRow("status") << int(M::StatusColumn) << u"Status"_s;
}

void TestCapabilityTokenModel::headers()
{
    QFETCH(int, section);
    QFETCH(QString, title);
    CapabilityTokenModel model;
    QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), title);
    QVERIFY(!model.headerData(section, Qt::Vertical).isValid());
    QVERIFY(!model.headerData(section, Qt::Horizontal, Qt::ToolTipRole).isValid());
}

QTEST_GUILESS_MAIN(TestCapabilityTokenModel)
#include "tst_capabilitytokenmodel.moc"
