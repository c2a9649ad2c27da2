#include "tests/app/ctltestsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): capability tokens, made, listed and revoked, and the gate they
// open.
class TestCapdeskctlTokens : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void tokensGateInvocations();

private:
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCapdeskctlTokens::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCapdeskctlTokens::tokensGateInvocations()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const Run created = ctl({u"token"_s, u"create"_s, u"--audience"_s, u"planner"_s, u"--keys"_s,
                             u"BASE64_ENCODE"_s, u"--payload-ceiling"_s, u"4"_s, u"--db"_s, db()});
    QCOMPARE(created.exitCode, 0);
    const QString value = created.json().value(u"value"_s).toString();
    const QString id = created.json().value(u"token"_s).toObject().value(u"id"_s).toString();
    QVERIFY(value.startsWith(u"cdt_"_s));

    auto invokeWith = [&](const QString &key, const QString &body, const QString &audience) {
        return ctl({u"invoke"_s, key, body, u"--token"_s, value, u"--audience"_s, audience, u"--db"_s, db()});
    };
    const Run allowed = invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"planner"_s);
    QCOMPARE(allowed.exitCode, 0);
    QCOMPARE(allowed.json()
                 .value(u"proof"_s)
                 .toObject()
                 .value(u"receipt"_s)
                 .toObject()
                 .value(u"actor"_s)
                 .toString(),
             u"token:"_s + id);
    const Run otherAudience = invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"someone"_s);
    QCOMPARE(otherAudience.exitCode, 4);
    QCOMPARE(otherAudience.json().value(u"error"_s).toString(), u"audience_mismatch"_s);
    QCOMPARE(invokeWith(u"NOW"_s, QString(), u"planner"_s).json().value(u"error"_s).toString(),
             u"scope:NOW"_s);
    QCOMPARE(invokeWith(u"BASE64_ENCODE"_s, u"hello"_s, u"planner"_s).json().value(u"error"_s).toString(),
             u"payload_ceiling:5>4"_s);

    QCOMPARE(ctl({u"token"_s, u"revoke"_s, id, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"planner"_s).json().value(u"error"_s).toString(),
             u"revoked"_s);
    const Run list = ctl({u"token"_s, u"list"_s, u"--db"_s, db()});
    QCOMPARE(list.json().value(u"tokens"_s).toArray().size(), 1);
    QVERIFY(!list.out.contains(value.toUtf8()));

    // Every refusal is in the event log.
    const QJsonArray events =
        ctl({u"log"_s, u"--key"_s, u"NOW"_s, u"--db"_s, db()}).json().value(u"events"_s).toArray();
    QVERIFY(std::any_of(events.begin(), events.end(), [](const QJsonValue &event) {
        return event.toObject().value(u"kind"_s).toString() == u"CAPABILITY_REFUSED"_s;
    }));
}

QTEST_GUILESS_MAIN(TestCapdeskctlTokens)
#include "tst_capdeskctl_tokens.moc"
