#include "tests/app/ctltestsupport.h"
#include "tests/support/rawsql.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): capability tokens, made, listed and revoked, and the gate they
// open; a key or category no row has, refused unless --allow-unknown.
class TestCapdeskctlTokens : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void tokensGateInvocations();
    void aRefusalSaysWhatWouldLetTheCallThrough_data();
    void aRefusalSaysWhatWouldLetTheCallThrough();
    void unknownNamesAreRefusedUnlessAllowed_data();
    void unknownNamesAreRefusedUnlessAllowed();
    void helpNamesAllowUnknown();
    void aTokenIsReadFromAFile_data();
    void aTokenIsReadFromAFile();

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

void TestCapdeskctlTokens::aRefusalSaysWhatWouldLetTheCallThrough_data()
{
    QTest::addColumn<QStringList>("create");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("audience");
    QTest::addColumn<QByteArray>("patch"); // fields JSON for the key after the token is made
    QTest::addColumn<QString>("sql"); // run on the file before the call
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("meaning");
    const QString echo = u"ECHO"_s;
    QTest::newRow("a key outside the scope")
        << QStringList{u"--keys"_s, echo} << u"NOW"_s << QString() << u"planner"_s << QByteArray()
        << QString() << u"scope:NOW"_s
        << u"NOW is outside the token's scope: neither its keys nor its categories include it"_s;
    QTest::newRow("another audience")
        << QStringList{u"--keys"_s, echo} << echo << u"hi"_s << u"someone"_s << QByteArray() << QString()
        << u"audience_mismatch"_s << u"--audience is not the audience the token was made for"_s;
    QTest::newRow("the owner gate") << QStringList{u"--keys"_s, echo, u"--owner-gate"_s} << echo << u"hi"_s
                                    << u"planner"_s << QByteArray() << QString() << u"owner_gate"_s
                                    << u"add --owner-present when they are"_s;
    QTest::newRow("a sensitive row") << QStringList{u"--keys"_s, u"DIR_DELETE"_s} << u"DIR_DELETE"_s << u"x"_s
                                     << u"planner"_s << QByteArray() << QString()
                                     << u"risk_ceiling:low<row:high"_s
                                     << u"a token made with --risk-ceiling high may call it"_s;
    QTest::newRow("another body") << QStringList{u"--keys"_s, echo, u"--fixed-body"_s, u"a"_s} << echo
                                  << u"b"_s << u"planner"_s << QByteArray() << QString() << u"fixed_body"_s
                                  << u"the token allows one body only, and this call's body is another"_s;
    QTest::newRow("a body over the ceiling")
        << QStringList{u"--keys"_s, echo, u"--payload-ceiling"_s, u"2"_s} << echo << u"hello"_s
        << u"planner"_s << QByteArray() << QString() << u"payload_ceiling:5>2"_s
        << u"the body is 5 bytes, over the token's ceiling of 2"_s;
    QTest::newRow("a pinned row changed")
        << QStringList{u"--pin"_s, echo} << echo << u"hi"_s << u"planner"_s
        << QByteArray(R"({"target": "upper"})") << QString() << u"contract_changed:"_s
        << u"the row changed since the token was pinned to it"_s;
    QTest::newRow("no such token") << QStringList() << echo << u"hi"_s << u"planner"_s << QByteArray()
                                   << QString() << u"unknown_token"_s
                                   << u"no token of this directory matched that value"_s;
    // The reason then carries "(and the refusal could not be logged: …)": the code still reads.
    QTest::newRow("a refusal the log could not record")
        << QStringList{u"--keys"_s, echo} << u"NOW"_s << QString() << u"planner"_s << QByteArray()
        << u"CREATE TRIGGER no_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'no room'); END"_s
        << u"scope:NOW (and the refusal could not be logged"_s
        << u"(NOW is outside the token's scope: neither its keys nor its categories include it)"_s;
}

// stdout keeps SPEC §7's literal reason for scripts; stderr also says what it means.
void TestCapdeskctlTokens::aRefusalSaysWhatWouldLetTheCallThrough()
{
    QFETCH(QStringList, create);
    QFETCH(QString, key);
    QFETCH(QString, body);
    QFETCH(QString, audience);
    QFETCH(QByteArray, patch);
    QFETCH(QString, sql);
    QFETCH(QString, reason);
    QFETCH(QString, meaning);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QString value = u"cdt_nosuchtoken"_s;
    if (!create.isEmpty()) {
        const Run created = ctl(
            QStringList{u"token"_s, u"create"_s, u"--audience"_s, u"planner"_s, u"--db"_s, db()} + create);
        QVERIFY2(created.exitCode == 0, created.err.constData());
        value = created.json().value(u"value"_s).toString();
    }
    if (!patch.isEmpty())
        QCOMPARE(ctl({u"patch"_s, key, u"--db"_s, db()}, patch).exitCode, 0);
    if (!sql.isEmpty())
        QCOMPARE(RawSql::exec(db(), {sql}), QString());
    const Run refused =
        ctl({u"invoke"_s, key, body, u"--token"_s, value, u"--audience"_s, audience, u"--db"_s, db()});
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(refused.json().value(u"error"_s).toString().startsWith(reason), refused.out.constData());
    const QString note = QString::fromUtf8(refused.err);
    QVERIFY2(note.contains(u"capdeskctl: refused, nothing ran: "_s + reason), qPrintable(note));
    QVERIFY2(note.contains(meaning), qPrintable(note));
    QVERIFY2(!note.contains(value), qPrintable(note));
    // A token holder is told that the log failed, under a fault id; the store's own words
    // go to the log (here stderr), for the owner.
    if (!sql.isEmpty()) {
        QVERIFY2(!refused.out.contains("no room") && refused.out.contains("(fault "),
                 refused.out.constData());
        QVERIFY2(note.contains(u"capdesk: fault "_s) && note.contains(u"no room"_s), qPrintable(note));
    }
}

void TestCapdeskctlTokens::unknownNamesAreRefusedUnlessAllowed_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error"); // the start of "error"; empty when made
    QTest::addColumn<QStringList>("unknownKeys");
    QTest::addColumn<QStringList>("unknownCategories");

    const QStringList none;
    QTest::addRow("known key") << QStringList{u"--keys"_s, u"BASE64_ENCODE"_s} << 0 << QString() << none
                               << none;
    QTest::addRow("known category") << QStringList{u"--categories"_s, u"text,time"_s} << 0 << QString()
                                    << none << none;
    QTest::addRow("unknown key") << QStringList{u"--keys"_s, u"BASE64_ENCDOE"_s} << 3
                                 << u"unknown_scope: no row has the key BASE64_ENCDOE"_s
                                 << QStringList{u"BASE64_ENCDOE"_s} << none;
    QTest::addRow("unknown category")
        << QStringList{u"--categories"_s, u"weathr"_s} << 3
        << u"unknown_scope: no row has the category weathr"_s << none << QStringList{u"weathr"_s};
    QTest::addRow("names compare exactly")
        << QStringList{u"--keys"_s, u"now"_s} << 3 << u"unknown_scope: no row has the key now"_s
        << QStringList{u"now"_s} << none;
    QTest::addRow("only the unknown ones are named")
        << QStringList{u"--keys"_s, u"NOW,NOPE_A,ECHO,NOPE_B"_s, u"--categories"_s, u"time,nope"_s} << 3
        << u"unknown_scope: no row has the keys NOPE_A, NOPE_B; no row has the category nope"_s
        << QStringList{u"NOPE_A"_s, u"NOPE_B"_s} << QStringList{u"nope"_s};
    QTest::addRow("unknown key with --allow-unknown")
        << QStringList{u"--keys"_s, u"MADE_LATER"_s, u"--allow-unknown"_s} << 0 << QString() << none << none;
    QTest::addRow("unknown category with --allow-unknown")
        << QStringList{u"--allow-unknown"_s, u"--categories"_s, u"later"_s} << 0 << QString() << none << none;
    QTest::addRow("an invalid option is said first")
        << QStringList{u"--keys"_s, u"NOPE"_s, u"--risk-ceiling"_s, u"medium"_s} << 2
        << u"--risk-ceiling takes low or high, not 'medium'"_s << none << none;
    QTest::addRow("an invalid token is said before unknown names")
        << QStringList{u"--keys"_s, u"NOPE"_s, u"--fixed-body"_s, u"abc"_s, u"--payload-ceiling"_s, u"2"_s}
        << 4 << u"fixed_body: longer than payload_ceiling"_s << none << none;
    QTest::addRow("the flag takes no value")
        << QStringList{u"--keys"_s, u"NOPE"_s, u"--allow-unknown=yes"_s} << 2 << QString() << none << none;
}

void TestCapdeskctlTokens::unknownNamesAreRefusedUnlessAllowed()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);

    const Run created =
        ctl(QStringList{u"token"_s, u"create"_s, u"--audience"_s, u"ci"_s, u"--db"_s, db()} + options);
    QVERIFY2(created.exitCode == exitCode, created.err.constData());
    const qsizetype made =
        ctl({u"token"_s, u"list"_s, u"--db"_s, db()}).json().value(u"tokens"_s).toArray().size();
    if (exitCode == 0) {
        QVERIFY(created.json().value(u"value"_s).toString().startsWith(u"cdt_"_s));
        QCOMPARE(made, 1);
        return;
    }
    // Refused: nothing was made, and nothing but the answer was printed.
    QCOMPARE(made, 0);
    if (exitCode == 2) { // a usage error prints its reason and the usage, not JSON
        QVERIFY2(created.err.contains(error.toUtf8()), created.err.constData());
        return;
    }
    const QJsonObject answer = created.json();
    QCOMPARE(answer.value(u"ok"_s), QJsonValue(false));
    QVERIFY2(answer.value(u"error"_s).toString().startsWith(error), created.out.constData());
    QVERIFY(created.err.contains(error.toUtf8()));
    if (!error.startsWith(u"unknown_scope"_s))
        return;
    QCOMPARE(answer.value(u"reason"_s).toString(), u"unknown_scope"_s);
    QVERIFY(
        answer.value(u"error"_s).toString().endsWith(u"(give --allow-unknown to make the token anyway)"_s));
    QTEST(answer.value(u"unknown_keys"_s).toVariant().toStringList(), "unknownKeys");
    QTEST(answer.value(u"unknown_categories"_s).toVariant().toStringList(), "unknownCategories");
}

void TestCapdeskctlTokens::helpNamesAllowUnknown()
{
    const Run help = ctl({u"help"_s, u"token"_s, u"create"_s});
    QCOMPARE(help.exitCode, 0);
    const QString text = QString::fromUtf8(help.out + help.err);
    QVERIFY2(text.contains(u"--allow-unknown"_s), qPrintable(text));
    QVERIFY2(text.contains(u"unknown_scope"_s), qPrintable(text));
}

// --token-file keeps the token off the command line, where ps and the shell's history show
// it; the file is held to what serve's owner key file is held to.
void TestCapdeskctlTokens::aTokenIsReadFromAFile_data()
{
    QTest::addColumn<QByteArray>("content"); // empty: no file at all
    QTest::addColumn<QFileDevice::Permissions>("permissions");
    QTest::addColumn<bool>("alsoOnTheLine");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QByteArray>("said");
    const QFileDevice::Permissions owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    QTest::addRow("the token, mode 0600") << QByteArray("VALUE\n") << owner << false << 0 << QByteArray();
    QTest::addRow("readable by others") << QByteArray("VALUE\n") << (owner | QFileDevice::ReadOther) << false
                                        << 2 << QByteArray("is open to other users; chmod 600 it");
    QTest::addRow("no such file") << QByteArray() << owner << false << 2 << QByteArray("no token file at");
    QTest::addRow("an empty file") << QByteArray("\n") << owner << false << 2 << QByteArray("is empty");
    QTest::addRow("longer than a token can be")
        << QByteArray(5000, 'k') << owner << false << 2 << QByteArray("is longer than 4096 bytes");
    QTest::addRow("two lines") << QByteArray("VALUE\nmore\n") << owner << false << 2
                               << QByteArray("one line of printable ASCII");
    QTest::addRow("and --token too") << QByteArray("VALUE\n") << owner << true << 2
                                     << QByteArray("give the token one way: --token or --token-file");
}

void TestCapdeskctlTokens::aTokenIsReadFromAFile()
{
    QFETCH(QByteArray, content);
    QFETCH(QFileDevice::Permissions, permissions);
    QFETCH(bool, alsoOnTheLine);
    QFETCH(int, exitCode);
    QFETCH(QByteArray, said);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QString value = ctl({u"token"_s, u"create"_s, u"--audience"_s, u"planner"_s, u"--keys"_s,
                               u"BASE64_ENCODE"_s, u"--db"_s, db()})
                              .json()
                              .value(u"value"_s)
                              .toString();
    QVERIFY(value.startsWith(u"cdt_"_s));
    const QString tokenFile = m_dir->filePath(u"token"_s);
    if (!content.isEmpty()) {
        QFile file(tokenFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content.replace("VALUE", value.toLatin1()));
        file.close();
        QVERIFY(file.setPermissions(permissions));
    }
    QStringList line{u"invoke"_s,  u"BASE64_ENCODE"_s, u"hi"_s, u"--token-file"_s, tokenFile, u"--audience"_s,
                     u"planner"_s, u"--db"_s,          db()};
    if (alsoOnTheLine)
        line << u"--token"_s << value;
    const Run run = ctl(line);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.contains(said), run.err.constData());
    if (exitCode != 0)
        return;
    // The call was the token holder's, through the gate.
    QVERIFY(run.json()
                .value(u"proof"_s)
                .toObject()
                .value(u"receipt"_s)
                .toObject()
                .value(u"actor"_s)
                .toString()
                .startsWith(u"token:"_s));
    // A token file holds a token's value; without --audience it could only be refused.
    const Run noAudience =
        ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--token-file"_s, tokenFile, u"--db"_s, db()});
    QCOMPARE(noAudience.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestCapdeskctlTokens)
#include "tst_capdeskctl_tokens.moc"
