#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/row/row.h"
#include "dispatch/tokens/capabilitytoken.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;

// The token spec of SPEC §7: its JSON form, the named errors of a spec that cannot be
// stored, relative and absolute expiries, status and pinning.
class TestCapabilityToken : public QObject
{
    Q_OBJECT

private slots:
    void newIdIsTokPlusEightBase36();
    void jsonRoundTrip();
    void fromJsonRefuses_data();
    void fromJsonRefuses();
    void resolveExpiry_data();
    void resolveExpiry();
    void status_data();
    void status();
    void pinToRow_data();
    void pinToRow();
    void splitList_data();
    void splitList();
};

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);

QJsonObject minimalSpec()
{
    return QJsonObject{{u"audience"_s, u"agent:planner"_s}, {u"allowed_keys"_s, QJsonArray{u"ECHO_BACK"_s}}};
}

} // namespace

void TestCapabilityToken::newIdIsTokPlusEightBase36()
{
    static const QRegularExpression form(u"^tok_[0-9a-z]{8}$"_s);
    QSet<QString> seen;
    for (int i = 0; i < 50; ++i) {
        const QString id = CapabilityToken::newId();
        QVERIFY2(form.match(id).hasMatch(), qPrintable(id));
        seen.insert(id);
    }
    QCOMPARE(seen.size(), 50);
}

void TestCapabilityToken::jsonRoundTrip()
{
    CapabilityToken token;
    token.id = u"tok_0a1b2c3d"_s;
    token.label = u"planner, weekdays"_s;
    token.audience = u"agent:planner"_s;
    token.ownerGate = true;
    token.allowedKeys = {u"ECHO_BACK"_s, u"NOW"_s};
    token.allowedCategories = {u"time"_s};
    token.pinnedContract = QString(64, u'a');
    token.riskCeiling = u"high"_s;
    token.fixedBody = QString();
    token.payloadCeiling = 0;
    token.expiresAt = u"2026-04-01T00:00:00.000Z"_s;
    token.createdAt = u"2026-03-01T00:00:00.000Z"_s;

    const QJsonObject json = token.toJson();
    QVERIFY(!json.contains(u"value"_s));
    QCOMPARE(json.value(u"revoked_at"_s), QJsonValue(QJsonValue::Null));
    const StoreResult<CapabilityToken> back = CapabilityToken::fromJson(json, kNow);
    QVERIFY2(back.ok(), qPrintable(back.error().message));
    QCOMPARE(back.value().toJson(), json);
    QVERIFY(back.value().fixedBody.has_value()); // an empty fixed body is a body, not none
}

void TestCapabilityToken::fromJsonRefuses_data()
{
    QTest::addColumn<QJsonObject>("edit");
    QTest::addColumn<QString>("error");

    const auto spec = [](std::initializer_list<QPair<QString, QJsonValue>> members) {
        QJsonObject object = minimalSpec();
        for (const auto &[name, value] : members) {
            if (value.isUndefined())
                object.remove(name);
            else
                object.insert(name, value);
        }
        return object;
    };
    QTest::addRow("a token value") << spec({{u"value"_s, u"cdt_x"_s}}) << u"value: not a token field"_s;
    QTest::addRow("no audience") << spec({{u"audience"_s, QJsonValue::Undefined}}) << u"audience: required"_s;
    QTest::addRow("blank audience") << spec({{u"audience"_s, u"  "_s}}) << u"audience: required"_s;
    QTest::addRow("no scope") << spec({{u"allowed_keys"_s, QJsonArray()}})
                              << u"scope: at least one key or category"_s;
    QTest::addRow("keys as text") << spec({{u"allowed_keys"_s, u"A,B"_s}})
                                  << u"allowed_keys: must be an array of strings"_s;
    QTest::addRow("a key holding a comma")
        << spec({{u"allowed_keys"_s, QJsonArray{u"A,B"_s}}})
        << u"allowed_keys: 'A,B' is not a name (no commas, no surrounding spaces)"_s;
    QTest::addRow("an empty category")
        << spec({{u"allowed_categories"_s, QJsonArray{u""_s}}})
        << u"allowed_categories: '' is not a name (no commas, no surrounding spaces)"_s;
    QTest::addRow("risk ceiling medium")
        << spec({{u"risk_ceiling"_s, u"medium"_s}}) << u"risk_ceiling: must be low or high, not 'medium'"_s;
    QTest::addRow("negative ceiling")
        << spec({{u"payload_ceiling"_s, -1}}) << u"payload_ceiling: must be 0 or more bytes"_s;
    QTest::addRow("fractional ceiling") << spec({{u"payload_ceiling"_s, 1.5}})
                                        << u"payload_ceiling: must be a whole number of bytes or null"_s;
    QTest::addRow("fixed body over the ceiling")
        << spec({{u"payload_ceiling"_s, 2}, {u"fixed_body"_s, u"abc"_s}})
        << u"fixed_body: longer than payload_ceiling; the token could never be used"_s;
    QTest::addRow("expiry unparsable")
        << spec({{u"expires_at"_s, u"next tuesday"_s}})
        << u"expires_at: 'next tuesday' is neither ISO-8601 nor a count like 90m, 12h, 30d or 2w"_s;
    QTest::addRow("pinned not a fingerprint")
        << spec({{u"pinned_contract"_s, u"abc"_s}})
        << u"pinned_contract: must be a contract fingerprint (64 lowercase hex)"_s;
    const QString longName(CapabilityToken::kMaxNameBytes + 1, u'a');
    QTest::addRow("an audience over its cap")
        << spec({{u"audience"_s, longName}}) << u"audience: longer than 256 bytes"_s;
    QTest::addRow("an audience at its cap in UTF-8 bytes, over it")
        << spec({{u"audience"_s, QString(CapabilityToken::kMaxNameBytes / 2, u'\u00e9') + u"x"_s}})
        << u"audience: longer than 256 bytes"_s;
    QTest::addRow("an audience holding a newline")
        << spec({{u"audience"_s, u"bot\r\nX-Owner: 1"_s}}) << u"audience: holds a control character"_s;
    QTest::addRow("a label over its cap")
        << spec({{u"label"_s, longName}}) << u"label: longer than 256 bytes"_s;
    QTest::addRow("a label holding an escape")
        << spec({{u"label"_s, u"\u001b[2J"_s}}) << u"label: holds a control character"_s;
    QTest::addRow("a key over its cap")
        << spec({{u"allowed_keys"_s, QJsonArray{longName}}}) << u"allowed_keys: longer than 256 bytes"_s;
    QJsonArray manyKeys;
    for (int i = 0; i <= CapabilityToken::kMaxNames; ++i)
        manyKeys.append(u"K%1"_s.arg(i));
    QTest::addRow("too many keys") << spec({{u"allowed_keys"_s, manyKeys}})
                                   << u"allowed_keys: more than 1000 names"_s;
    QTest::addRow("a category holding a tab") << spec({{u"allowed_categories"_s, QJsonArray{u"a\tb"_s}}})
                                              << u"allowed_categories: holds a control character"_s;
    QTest::addRow("a fixed body over 1 MiB")
        << spec({{u"fixed_body"_s, QString(CapabilityToken::kMaxFixedBodyBytes + 1, u'b')}})
        << u"fixed_body: longer than 1 MiB"_s;
    QTest::addRow("owner gate as text")
        << spec({{u"owner_gate"_s, u"yes"_s}}) << u"owner_gate: must be true or false"_s;
}

void TestCapabilityToken::fromJsonRefuses()
{
    QFETCH(QJsonObject, edit);
    QFETCH(QString, error);
    const StoreResult<CapabilityToken> token = CapabilityToken::fromJson(edit, kNow);
    QVERIFY(!token.ok());
    QCOMPARE(token.error().kind, StoreError::Kind::Invalid);
    QCOMPARE(token.error().message, error);
}

void TestCapabilityToken::resolveExpiry_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // empty with ok = "" means never
    QTest::addColumn<bool>("ok");

    QTest::addRow("never") << u""_s << u""_s << true;
    QTest::addRow("30d") << u"30d"_s << u"2026-03-31T12:00:00.000Z"_s << true;
    QTest::addRow("12h") << u"12h"_s << u"2026-03-02T00:00:00.000Z"_s << true;
    QTest::addRow("90m") << u"90m"_s << u"2026-03-01T13:30:00.000Z"_s << true;
    QTest::addRow("2w") << u" 2w "_s << u"2026-03-15T12:00:00.000Z"_s << true;
    QTest::addRow("ISO UTC") << u"2026-05-01T08:00:00Z"_s << u"2026-05-01T08:00:00.000Z"_s << true;
    QTest::addRow("ISO with offset") << u"2026-05-01T10:00:00+02:00"_s << u"2026-05-01T08:00:00.000Z"_s
                                     << true;
    QTest::addRow("ISO without zone is UTC")
        << u"2026-05-01T08:00"_s << u"2026-05-01T08:00:00.000Z"_s << true;
    QTest::addRow("unknown unit") << u"30y"_s << QString() << false;
    QTest::addRow("negative") << u"-1d"_s << QString() << false;
    QTest::addRow("words") << u"soon"_s << QString() << false;
}

void TestCapabilityToken::resolveExpiry()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QFETCH(bool, ok);
    const StoreResult<QString> resolved = CapabilityToken::resolveExpiry(text, kNow);
    QCOMPARE(resolved.ok(), ok);
    if (ok)
        QCOMPARE(resolved.value(), expected);
    else
        QVERIFY(resolved.error().message.startsWith(u"expires_at: "_s));
}

void TestCapabilityToken::status_data()
{
    QTest::addColumn<QString>("expiresAt");
    QTest::addColumn<QString>("revokedAt");
    QTest::addColumn<QString>("status");

    QTest::addRow("never expires") << QString() << QString() << u"active"_s;
    QTest::addRow("expires later") << u"2026-03-01T12:00:01.000Z"_s << QString() << u"active"_s;
    QTest::addRow("expired") << u"2026-03-01T12:00:00.000Z"_s << QString() << u"expired"_s;
    QTest::addRow("revoked wins") << u"2026-03-01T11:00:00.000Z"_s << u"2026-02-01T00:00:00.000Z"_s
                                  << u"revoked"_s;
}

void TestCapabilityToken::status()
{
    QFETCH(QString, expiresAt);
    QFETCH(QString, revokedAt);
    QFETCH(QString, status);
    CapabilityToken token;
    token.expiresAt = expiresAt;
    token.revokedAt = revokedAt;
    QCOMPARE(token.status(kNow), status);
}

void TestCapabilityToken::pinToRow_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("categories");
    QTest::addColumn<bool>("ok");

    QTest::addRow("no scope yet: becomes the row") << QStringList() << QStringList() << true;
    QTest::addRow("the row alone") << QStringList{u"ECHO_BACK"_s} << QStringList() << true;
    QTest::addRow("another key too") << QStringList{u"ECHO_BACK"_s, u"NOW"_s} << QStringList() << false;
    QTest::addRow("a category") << QStringList() << QStringList{u"text"_s} << false;
}

void TestCapabilityToken::pinToRow()
{
    QFETCH(QStringList, keys);
    QFETCH(QStringList, categories);
    QFETCH(bool, ok);

    Row row;
    row.key = u"ECHO_BACK"_s;
    row.type = u"fn"_s;
    row.target = u"echo"_s;
    CapabilityToken token;
    token.allowedKeys = keys;
    token.allowedCategories = categories;
    const StoreError error = token.pinToRow(row);
    QCOMPARE(!error.isError(), ok);
    if (ok) {
        QCOMPARE(token.allowedKeys, QStringList{u"ECHO_BACK"_s});
        QCOMPARE(token.pinnedContract, ContractFingerprint::of(row));
    } else {
        QVERIFY(error.message.startsWith(u"pinned_contract: "_s));
        QVERIFY(token.pinnedContract.isEmpty());
    }
}

void TestCapabilityToken::splitList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("list");

    QTest::addRow("empty") << u""_s << QStringList();
    QTest::addRow("one") << u"NOW"_s << QStringList{u"NOW"_s};
    QTest::addRow("spaces and empties") << u" A, B ,,C,"_s << QStringList{u"A"_s, u"B"_s, u"C"_s};
    QTest::addRow("duplicates") << u"A,A"_s << QStringList{u"A"_s};
}

void TestCapabilityToken::splitList()
{
    QFETCH(QString, text);
    QFETCH(QStringList, list);
    QCOMPARE(CapabilityToken::splitList(text), list);
}

QTEST_GUILESS_MAIN(TestCapabilityToken)
#include "tst_capabilitytoken.moc"
