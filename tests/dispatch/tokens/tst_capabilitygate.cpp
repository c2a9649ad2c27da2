#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/row/row.h"
#include "dispatch/tokens/capabilitygate.h"
#include "dispatch/tokens/capabilitytoken.h"

#include <QTest>

#include <functional>

using namespace Qt::StringLiterals;

// SPEC §7 capGateCheck: one row per literal reason, rows proving the order (a call that
// fails several checks hears only the earliest), the allowed cases, and that editing a
// row never widens what a token reaches. Each row edits the same token, call and row.
using Setup = std::function<void(CapabilityToken &, CapabilityCall &, Row &)>;
Q_DECLARE_METATYPE(Setup)

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);

Row echoRow()
{
    Row row;
    row.key = u"ECHO_BACK"_s;
    row.type = u"fn"_s;
    row.target = u"echo"_s;
    row.category = u"text"_s;
    row.content = u"# WHAT: echo\n[\"$1\"]\n"_s;
    row.updatedAt = u"2026-01-02T03:04:05.678Z"_s;
    return row;
}

CapabilityToken baseToken()
{
    CapabilityToken token;
    token.id = u"tok_abcd1234"_s;
    token.audience = u"agent:planner"_s;
    token.allowedKeys = {u"ECHO_BACK"_s};
    token.allowedCategories = {u"time"_s};
    token.createdAt = u"2026-01-01T00:00:00.000Z"_s;
    return token;
}

CapabilityCall baseCall()
{
    return CapabilityCall{u"ECHO_BACK"_s, u"hi"_s, u"agent:planner"_s, false};
}

// The edits the rows combine.
void revoke(CapabilityToken &t)
{
    t.revokedAt = u"2026-02-01T00:00:00.000Z"_s;
}
void expire(CapabilityToken &t)
{
    t.expiresAt = u"2026-03-01T11:59:59.999Z"_s;
}
void otherAudience(CapabilityCall &c)
{
    c.audience = u"agent:other"_s;
}
void gateOwner(CapabilityToken &t)
{
    t.ownerGate = true;
}
void outOfScope(CapabilityCall &c, Row &r)
{
    c.key = u"NOW"_s;
    r.key = u"NOW"_s;
    r.category = u"misc"_s;
}
void pinStale(CapabilityToken &t, Row &r)
{
    t.pinnedContract = ContractFingerprint::of(r);
    r.target = u"upper"_s;
}
void pin(CapabilityToken &t, const Row &r)
{
    t.pinnedContract = ContractFingerprint::of(r);
}
void makeSensitive(Row &r)
{
    r.sensitive = true;
}
void fixBody(CapabilityToken &t)
{
    t.fixedBody = u"fixed"_s;
}
void ceiling(CapabilityToken &t, qint64 bytes)
{
    t.payloadCeiling = bytes;
}

} // namespace

class TestCapabilityGate : public QObject
{
    Q_OBJECT

private slots:
    void check_data();
    void check();
    void editingARowCannotWidenAToken_data();
    void editingARowCannotWidenAToken();
    void unknownToken();
};

void TestCapabilityGate::check_data()
{
    QTest::addColumn<Setup>("setup");
    // "%PINNED%" and "%CURRENT%" stand for the fingerprints the row computes.
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("status");

    // One per literal reason.
    QTest::addRow("revoked") << Setup([](auto &t, auto &, auto &) { revoke(t); }) << u"revoked"_s << 403;
    QTest::addRow("expired") << Setup([](auto &t, auto &, auto &) { expire(t); }) << u"expired"_s << 403;
    QTest::addRow("expired at this very instant")
        << Setup([](auto &t, auto &, auto &) { t.expiresAt = kNow.toString(Qt::ISODateWithMs); })
        << u"expired"_s << 403;
    QTest::addRow("unreadable expiry counts as expired")
        << Setup([](auto &t, auto &, auto &) { t.expiresAt = u"someday"_s; }) << u"expired"_s << 403;
    QTest::addRow("audience_mismatch")
        << Setup([](auto &, auto &c, auto &) { otherAudience(c); }) << u"audience_mismatch"_s << 403;
    QTest::addRow("owner_gate") << Setup([](auto &t, auto &, auto &) { gateOwner(t); }) << u"owner_gate"_s
                                << 403;
    QTest::addRow("scope") << Setup([](auto &, auto &c, auto &r) { outOfScope(c, r); }) << u"scope:NOW"_s
                           << 403;
    QTest::addRow("scope: the row is not the one named") << Setup([](auto &, auto &, auto &r) {
        r.key = u"NOW"_s;
        r.category = u"time"_s;
    }) << u"scope:ECHO_BACK"_s << 403;
    QTest::addRow("scope: an uncategorised row") << Setup([](auto &, auto &c, auto &r) {
        c.key = r.key = u"NOW"_s;
        r.category.clear();
    }) << u"scope:NOW"_s << 403;
    QTest::addRow("contract_changed") << Setup([](auto &t, auto &, auto &r) { pinStale(t, r); })
                                      << u"contract_changed:%PINNED%!=%CURRENT%"_s << 409;
    QTest::addRow("risk_ceiling") << Setup([](auto &, auto &, auto &r) { makeSensitive(r); })
                                  << u"risk_ceiling:low<row:high"_s << 403;
    QTest::addRow("fixed_body") << Setup([](auto &t, auto &, auto &) { fixBody(t); }) << u"fixed_body"_s
                                << 403;
    QTest::addRow("payload_ceiling") << Setup([](auto &t, auto &, auto &) { ceiling(t, 1); })
                                     << u"payload_ceiling:2>1"_s << 413;
    QTest::addRow("payload_ceiling counts UTF-8 bytes") << Setup([](auto &t, auto &c, auto &) {
        ceiling(t, 4);
        c.body = u"é€"_s;
    }) << u"payload_ceiling:5>4"_s << 413;

    // The order: every row fails its own check and all the later ones.
    QTest::addRow("order: revoked first") << Setup([](auto &t, auto &c, auto &r) {
        revoke(t);
        expire(t);
        otherAudience(c);
        gateOwner(t);
        outOfScope(c, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"revoked"_s << 403;
    QTest::addRow("order: expired before audience") << Setup([](auto &t, auto &c, auto &r) {
        expire(t);
        otherAudience(c);
        gateOwner(t);
        outOfScope(c, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"expired"_s << 403;
    QTest::addRow("order: audience before owner gate") << Setup([](auto &t, auto &c, auto &r) {
        otherAudience(c);
        gateOwner(t);
        outOfScope(c, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"audience_mismatch"_s << 403;
    QTest::addRow("order: owner gate before scope") << Setup([](auto &t, auto &c, auto &r) {
        gateOwner(t);
        outOfScope(c, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"owner_gate"_s << 403;
    QTest::addRow("order: scope before contract") << Setup([](auto &t, auto &c, auto &r) {
        pinStale(t, r);
        outOfScope(c, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"scope:NOW"_s << 403;
    QTest::addRow("order: contract before risk") << Setup([](auto &t, auto &, auto &r) {
        pinStale(t, r);
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"contract_changed:%PINNED%!=%CURRENT%"_s
                                                 << 409;
    QTest::addRow("order: risk before fixed body") << Setup([](auto &t, auto &, auto &r) {
        makeSensitive(r);
        fixBody(t);
        ceiling(t, 0);
    }) << u"risk_ceiling:low<row:high"_s << 403;
    QTest::addRow("order: fixed body before payload") << Setup([](auto &t, auto &c, auto &) {
        t.fixedBody = u"x"_s;
        ceiling(t, 1);
        c.body = u"much too long"_s;
    }) << u"fixed_body"_s << 403;

    // Allowed.
    QTest::addRow("key listed") << Setup([](auto &, auto &, auto &) {}) << QString() << 200;
    QTest::addRow("category allowed") << Setup([](auto &, auto &c, auto &r) {
        c.key = r.key = u"NOW"_s;
        r.category = u"time"_s;
    }) << QString() << 200;
    QTest::addRow("high ceiling on a sensitive row") << Setup([](auto &t, auto &, auto &r) {
        makeSensitive(r);
        t.riskCeiling = u"high"_s;
    }) << QString() << 200;
    QTest::addRow("exact fixed body") << Setup([](auto &t, auto &c, auto &) {
        fixBody(t);
        c.body = u"fixed"_s;
    }) << QString() << 200;
    QTest::addRow("body at exactly the ceiling")
        << Setup([](auto &t, auto &, auto &) { ceiling(t, 2); }) << QString() << 200;
    QTest::addRow("empty body under a zero ceiling") << Setup([](auto &t, auto &c, auto &) {
        ceiling(t, 0);
        c.body.clear();
    }) << QString() << 200;
    QTest::addRow("owner present") << Setup([](auto &t, auto &c, auto &) {
        gateOwner(t);
        c.ownerPresent = true;
    }) << QString() << 200;
    QTest::addRow("expiry still ahead")
        << Setup([](auto &t, auto &, auto &) { t.expiresAt = u"2026-03-01T12:00:00.001Z"_s; }) << QString()
        << 200;
    QTest::addRow("pinned contract unchanged")
        << Setup([](auto &t, auto &, auto &r) { pin(t, r); }) << QString() << 200;
    QTest::addRow("pinned contract, documentation edited") << Setup([](auto &t, auto &, auto &r) {
        pin(t, r);
        r.examples = u"[\"a\"]"_s;
        r.seq = 4;
    }) << QString() << 200;
}

void TestCapabilityGate::check()
{
    QFETCH(Setup, setup);
    QFETCH(QString, reason);
    QFETCH(int, status);

    CapabilityToken token = baseToken();
    CapabilityCall call = baseCall();
    Row row = echoRow();
    setup(token, call, row);
    reason.replace(u"%PINNED%"_s, token.pinnedContract).replace(u"%CURRENT%"_s, ContractFingerprint::of(row));

    const GateVerdict verdict = CapabilityGate::check(token, call, row, kNow);
    QCOMPARE(verdict.reason, reason);
    QCOMPARE(verdict.allowed, reason.isEmpty());
    QCOMPARE(verdict.httpStatus, status);
}

void TestCapabilityGate::editingARowCannotWidenAToken_data()
{
    QTest::addColumn<Setup>("edit");
    QTest::addColumn<QString>("reason");

    // The token reaches category "time" and is pinned to ECHO_BACK as it was (category
    // "text", outside the scope); a low ceiling covers non-sensitive rows only.
    QTest::addRow("moving a pinned row into an allowed category") << Setup([](auto &t, auto &, auto &r) {
        t.allowedKeys.clear();
        pin(t, r);
        r.category = u"time"_s;
    }) << u"contract_changed:%PINNED%!=%CURRENT%"_s;
    QTest::addRow("making a row sensitive under a low ceiling")
        << Setup([](auto &, auto &, auto &r) { makeSensitive(r); }) << u"risk_ceiling:low<row:high"_s;
    QTest::addRow("making a pinned row sensitive under a high ceiling")
        << Setup([](auto &t, auto &, auto &r) {
               t.riskCeiling = u"high"_s;
               pin(t, r);
               makeSensitive(r);
           })
        << u"contract_changed:%PINNED%!=%CURRENT%"_s;
    QTest::addRow("moving a row out of an allowed category") << Setup([](auto &t, auto &c, auto &r) {
        t.allowedKeys.clear();
        c.key = r.key = u"NOW"_s;
        r.category = u"misc"_s;
    }) << u"scope:NOW"_s;
}

void TestCapabilityGate::editingARowCannotWidenAToken()
{
    QFETCH(Setup, edit);
    QFETCH(QString, reason);

    CapabilityToken token = baseToken();
    CapabilityCall call = baseCall();
    Row row = echoRow();
    edit(token, call, row);
    reason.replace(u"%PINNED%"_s, token.pinnedContract).replace(u"%CURRENT%"_s, ContractFingerprint::of(row));

    const GateVerdict verdict = CapabilityGate::check(token, call, row, kNow);
    QVERIFY(!verdict.allowed);
    QCOMPARE(verdict.reason, reason);
}

void TestCapabilityGate::unknownToken()
{
    const GateVerdict verdict = CapabilityGate::unknownToken();
    QVERIFY(!verdict.allowed);
    QCOMPARE(verdict.reason, u"unknown_token"_s);
    QCOMPARE(verdict.httpStatus, 401);
}

QTEST_GUILESS_MAIN(TestCapabilityGate)
#include "tst_capabilitygate.moc"
