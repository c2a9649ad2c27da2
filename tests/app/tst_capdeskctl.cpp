#include "tests/support/fixturegenerator.h"
#include "tests/support/processrun.h"
#include "tests/support/rawsql.h"
#include "tests/support/serveprocess.h"
#include "dispatch/store/sqlitedirectorystore.h"
#include "tests/support/testcertificates.h"

#include <QFile>
#include <QHttpServer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSslError>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

enum class CaFile { None, Option, Environment, MissingOption, MissingEnvironment };

// How a malformed anchor file is made from a genuine one.
enum class AnchorDefect {
    Empty,
    NotJson,
    Truncated,
    NotAnObject,
    WrongType,
    MissingFields,
    BadSeq,
    BadSignatureBase64,
    ShortSignature,
    BadPublicKey,
    Huge
};

QStringList findingCodes(const QJsonObject &report)
{
    QStringList list;
    for (const QJsonValue &finding : report.value(u"findings"_s).toArray())
        list.append(finding.toObject().value(u"code"_s).toString());
    return list;
}

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

} // namespace

Q_DECLARE_METATYPE(CaFile)
Q_DECLARE_METATYPE(AnchorDefect)
Q_DECLARE_METATYPE(TestCertificates::Server)

// capdeskctl as a script or an owner's CI calls it: real process, real files, the exit
// codes of SPEC §11 (0 ok, 1 ERR, 2 usage, 3 not found, 4 refused).
class TestCapdeskctl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void initWithSampleHoldsTheArticleRows();
    void initSampleRefusesANonEmptyDirectory();
    void usageErrors_data();
    void usageErrors();
    void putGetPatchDeleteRoundTrip();
    void putRefusesBadRows_data();
    void putRefusesBadRows();
    void patchRefusesUnpatchableFields();
    void readCommandsNeverCreateADirectory_data();
    void readCommandsNeverCreateADirectory();
    void helpAndInapplicableOptions();
    void missingRowsAreExitThree_data();
    void missingRowsAreExitThree();
    void importAndExportBothFormats();
    void badImportIsRefusedAndChangesNothing();
    void importRefusals_data();
    void importRefusals();
    void importTakesTheDirectoryFromAWholeDatabase();
    void putNamesTheBrokenRule();
    void optionsMayStandAnywhere();
    void defaultDirectoryLivesInXdgData();
    void invokeRunsAndReportsLikeTheServer();
    void invokeShapeSendsNothingAndNamesMissingSecrets();
    void invokeHttpAgainstALocalUpstream();
    void receiptsConfirmAndVerifyOffline();
    void tokensGateInvocations();
    void logRecordsMutationsAndVerifies();
    void logVerifyNamesTamperingAndChecksAnAnchor();
    void logVerifyNamesAWipeBehindAnAnchor();
    void logVerifyNamesAMalformedAnchor_data();
    void logVerifyNamesAMalformedAnchor();
    void confirmRefusesARowHoldingAnotherReceipt();
    void confirmNamesWhyASignatureFails_data();
    void confirmNamesWhyASignatureFails();
    void flowPlanPrintsTheParsedFlow();
    void lintContractAndMcpTools();
    void serverModeRunsTheRowCommands();
    void serverModeRefusals_data();
    void serverModeRefusals();
    void serverOverHttps();
    void serverOverHttpsRefusals_data();
    void serverOverHttpsRefusals();
    void helpNamesEveryCommand_data();
    void helpNamesEveryCommand();
    void helpOfAnUnknownCommand();
    void optionsACommandDoesNotTake_data();
    void optionsACommandDoesNotTake();
    void localCommandsRefuseAServer_data();
    void localCommandsRefuseAServer();
    void serveOnPortZeroNamesThePortItGot();

private:
    Run ctl(const QStringList &arguments, const QByteArray &stdinData = {}) const;
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
    TestCertificates m_certificates;
};

Run TestCapdeskctl::ctl(const QStringList &arguments, const QByteArray &stdinData) const
{
    const ProcessRun::Result result = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, stdinData);
    if (!result.finished)
        return {};
    return {result.exitCode, result.out, result.err};
}

void TestCapdeskctl::initTestCase()
{
    QString error;
    QVERIFY2(m_certificates.create(&error), qPrintable(error));
}

void TestCapdeskctl::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCapdeskctl::initWithSampleHoldsTheArticleRows()
{
    const Run run = ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.json().value(QStringLiteral("rows")).toInt() >= 14);
    for (const char *key : {"NOW", "GROK_MODELS", "PROMPT_LAB_AGENT", "ROUTER", "BLOCK_VOICE", "BLOCK_IMESSAGE",
                            "BLOCK_EMOJI", "BLOCK_ROUTING", "BLOCK_ARA", "LAST_REPLY_OF", "SEND_BY_CHANNEL",
                            "BLOOIO_FINISH", "DIR_PATCH", "ZZ_TEST_TEMPERATURE"}) {
        const Run get = ctl({QStringLiteral("get"), QString::fromLatin1(key), QStringLiteral("--db"), db()});
        QVERIFY2(get.exitCode == 0, key);
        QCOMPARE(get.json().value(QStringLiteral("key")).toString(), QString::fromLatin1(key));
    }
    const Run router = ctl({QStringLiteral("get"), QStringLiteral("ROUTER"), QStringLiteral("--db"), db()});
    QCOMPARE(router.json().value(QStringLiteral("includes")).toString(),
             QStringLiteral("BLOCK_VOICE,BLOCK_IMESSAGE,BLOCK_EMOJI,BLOCK_ROUTING,BLOCK_ARA"));
}

void TestCapdeskctl::initSampleRefusesANonEmptyDirectory()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run again = ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()});
    QCOMPARE(again.exitCode, 4);
    QVERIFY(again.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("already holds")));
}

void TestCapdeskctl::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::addRow("no command") << QStringList{} << "no command given";
    QTest::addRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << "unknown command 'frobnicate'";
    QTest::addRow("unknown option") << QStringList{QStringLiteral("get"), QStringLiteral("--colour")} << "unknown option --colour";
    QTest::addRow("get without key") << QStringList{QStringLiteral("get")} << "usage: capdeskctl get KEY";
    QTest::addRow("--db without value") << QStringList{QStringLiteral("get"), QStringLiteral("--db")} << "--db needs a value";
    QTest::addRow("bad format") << QStringList{QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("csv")}
                                << "--format is json or sql";
    QTest::addRow("--ca-file without --server")
        << QStringList{QStringLiteral("get"), QStringLiteral("K"), QStringLiteral("--ca-file"),
                       QStringLiteral("ca.pem")}
        << "--ca-file goes with --server URL";
    QTest::addRow("--tls-cert outside serve")
        << QStringList{QStringLiteral("get"), QStringLiteral("K"), QStringLiteral("--tls-cert"),
                       QStringLiteral("c.pem")}
        << "--tls-cert does not apply to get";
}

void TestCapdeskctl::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

void TestCapdeskctl::putGetPatchDeleteRoundTrip()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const QByteArray row = R"({"key":"ZZ_TEST_TEMPERATURE","type":"http",
        "target":"GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m",
        "auth":"","content":"# WHAT: Current temperature\n# WHEN_TO_USE: tests\n# ARGS: $1=lat | $2=lon\n# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n# OUTPUT: JSON",
        "category":"tools","enabled":1,"planner_visible":1,"examples":"[\"37.77|-122.42\"]"})";
    const Run put = ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row);
    QCOMPARE(put.exitCode, 0);
    QVERIFY(put.json().value(QStringLiteral("created")).toBool());
    QCOMPARE(put.json().value(QStringLiteral("key")).toString(), QStringLiteral("ZZ_TEST_TEMPERATURE"));

    const Run patch = ctl({QStringLiteral("patch"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()},
                          R"({"category":"weather","seq":3})");
    QCOMPARE(patch.exitCode, 0);
    const Run get = ctl({QStringLiteral("get"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()});
    QCOMPARE(get.exitCode, 0);
    QCOMPARE(get.json().value(QStringLiteral("category")).toString(), QStringLiteral("weather"));
    QCOMPARE(get.json().value(QStringLiteral("seq")).toInt(), 3);
    QCOMPARE(get.json().value(QStringLiteral("auth")).toString(), QString());
    QVERIFY(!get.json().value(QStringLiteral("created_at")).toString().isEmpty());

    const Run replace = ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row);
    QCOMPARE(replace.exitCode, 0);
    QVERIFY(!replace.json().value(QStringLiteral("created")).toBool());

    const Run removed = ctl({QStringLiteral("delete"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()});
    QCOMPARE(removed.exitCode, 0);
    QCOMPARE(removed.json(), (QJsonObject{{QStringLiteral("ok"), true},
                                          {QStringLiteral("key"), QStringLiteral("ZZ_TEST_TEMPERATURE")},
                                          {QStringLiteral("deleted"), 1}}));
    QCOMPARE(ctl({QStringLiteral("get"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()}).exitCode, 3);
}

void TestCapdeskctl::putRefusesBadRows_data()
{
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("not json") << QByteArray("{\"key\":") << 2 << "stdin is not JSON: line 1";
    QTest::addRow("array") << QByteArray("[]") << 2 << "one row object";
    QTest::addRow("empty stdin") << QByteArray("  \n") << 2 << "stdin is empty";
    QTest::addRow("invalid utf-8") << QByteArray("{\"key\":\"UTF_ROW\",\"type\":\"fn\",\"content\":\"a\xff\"}") << 2
                                   << "invalid UTF-8";
    QTest::addRow("bad key") << QByteArray(R"({"key":"lower","type":"fn"})") << 4 << "must match";
    QTest::addRow("fifth type") << QByteArray(R"({"key":"GOOD_KEY","type":"cron"})") << 4 << "not one of fn, http, agent, flow";
    QTest::addRow("unknown field") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","colour":"red"})") << 4
                                   << "unknown field 'colour'";
    QTest::addRow("bad schema") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","input_schema":"{"})") << 4
                                << "input_schema is not JSON";
    QTest::addRow("examples object") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","examples":"{}"})") << 4 << "JSON array";
    QTest::addRow("enabled 2") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","enabled":2})") << 4 << "must be 0 or 1";
}

void TestCapdeskctl::putRefusesBadRows()
{
    QFETCH(QByteArray, row);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.json().value(QStringLiteral("ok")).toBool(true), false);
    QVERIFY2(run.json().value(QStringLiteral("error")).toString().contains(message), run.out.constData());
    const Run exported = ctl({QStringLiteral("export"), QStringLiteral("--db"), db()});
    QCOMPARE(QJsonDocument::fromJson(exported.out).array().size(), 0);
}

void TestCapdeskctl::patchRefusesUnpatchableFields()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run before = ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--db"), db()});
    const Run run = ctl({QStringLiteral("patch"), QStringLiteral("NOW"), QStringLiteral("--db"), db()},
                        R"({"runner":"edge","sensitive":1})");
    QCOMPARE(run.exitCode, 4);
    QCOMPARE(run.json().value(QStringLiteral("error")).toString(), QStringLiteral("no recognized fields"));
    QCOMPARE(ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--db"), db()}).out, before.out);

    const Run mixed = ctl({QStringLiteral("patch"), QStringLiteral("NOW"), QStringLiteral("--db"), db()},
                          R"({"runner":"edge","category":"clock"})");
    QCOMPARE(mixed.exitCode, 0);
    QCOMPARE(mixed.json().value(QStringLiteral("ignored")).toArray(), QJsonArray{QStringLiteral("runner")});
    QVERIFY(mixed.err.contains("not patchable, ignored: runner"));
}

void TestCapdeskctl::readCommandsNeverCreateADirectory_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addRow("get") << QStringList{QStringLiteral("get"), QStringLiteral("NOW")};
    QTest::addRow("export") << QStringList{QStringLiteral("export")};
    QTest::addRow("delete") << QStringList{QStringLiteral("delete"), QStringLiteral("NOW")};
    QTest::addRow("put") << QStringList{QStringLiteral("put")};
}

void TestCapdeskctl::readCommandsNeverCreateADirectory()
{
    QFETCH(QStringList, arguments);
    const QString missing = m_dir->filePath(QStringLiteral("typo/none.db"));
    const Run run = ctl(arguments + QStringList{QStringLiteral("--db"), missing}, R"({"key":"NOW","type":"fn"})");
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("capdeskctl init")));
    QVERIFY(!QFileInfo::exists(missing));
    QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("typo"))));
}

void TestCapdeskctl::helpAndInapplicableOptions()
{
    const Run help = ctl({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("usage: capdeskctl"));
    const Run sample = ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--sample")});
    QCOMPARE(sample.exitCode, 2);
    QVERIFY(sample.err.contains("--sample does not apply to get"));
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run clobber = ctl({QStringLiteral("export"), QStringLiteral("--db"), db(), QStringLiteral("--out=") + db()});
    QCOMPARE(clobber.exitCode, 2);
    QVERIFY(clobber.err.contains("would destroy it"));
    QVERIFY(SqliteDirectoryStore::open(db()).ok());
    const Run dashes = ctl({QStringLiteral("--db"), db(), QStringLiteral("get"), QStringLiteral("--"), QStringLiteral("--NOT_AN_OPTION")});
    QCOMPARE(dashes.exitCode, 3);
}

void TestCapdeskctl::missingRowsAreExitThree_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addRow("get") << QStringList{QStringLiteral("get"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("delete") << QStringList{QStringLiteral("delete"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("patch") << QStringList{QStringLiteral("patch"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("import of a missing file") << QStringList{QStringLiteral("import"), QStringLiteral("/nonexistent/rows.json")};
}

void TestCapdeskctl::missingRowsAreExitThree()
{
    QFETCH(QStringList, arguments);
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl(arguments + QStringList{QStringLiteral("--db"), db()}, R"({"content":"x"})");
    QCOMPARE(run.exitCode, 3);
}

void TestCapdeskctl::importAndExportBothFormats()
{
    const QString dump = m_dir->filePath(QStringLiteral("prod.sql"));
    QVERIFY(FixtureGenerator::makeSqlDump(dump, 891).isEmpty());
    // Generated dumps hold legacy rows, as production's do.
    const Run imported = ctl({QStringLiteral("import"), dump, QStringLiteral("--allow-noncompliant"), QStringLiteral("--db"), db()});
    QVERIFY2(imported.exitCode == 0, imported.out.constData());
    QCOMPARE(imported.json().value(QStringLiteral("imported")).toInt(), 891);

    const QString json = m_dir->filePath(QStringLiteral("rows.json"));
    const QString sql = m_dir->filePath(QStringLiteral("rows.sql"));
    QCOMPARE(ctl({QStringLiteral("export"), QStringLiteral("--out"), json, QStringLiteral("--db"), db()}).exitCode, 0);
    QCOMPARE(ctl({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sql"), QStringLiteral("--out"), sql,
                  QStringLiteral("--db"), db()})
                 .exitCode,
             0);

    for (const QString &file : {json, sql}) {
        const QString copy = m_dir->filePath(QFileInfo(file).suffix() + QStringLiteral(".db"));
        QCOMPARE(ctl({QStringLiteral("import"), file, QStringLiteral("--allow-noncompliant"), QStringLiteral("--db"), copy})
                     .exitCode,
                 0);
        auto original = SqliteDirectoryStore::open(db());
        auto roundTrip = SqliteDirectoryStore::open(copy);
        QVERIFY(original.ok() && roundTrip.ok());
        QCOMPARE(roundTrip.value()->allRows().value(), original.value()->allRows().value());
    }
}

void TestCapdeskctl::importRefusals_data()
{
    QTest::addColumn<QByteArray>("rows");   // a JSON array's rows after a compliant one
    QTest::addColumn<QString>("option");    // the option that lets them in, or "" for none
    QTest::addColumn<QStringList>("codes"); // named in the refusal and its findings
    QTest::addColumn<QString>("listed");    // what the accepted import lists ("noncompliant", "restamped")

    const QByteArray docs = R"("# WHAT: Upper-cases text.\n# WHEN_TO_USE: capitals.\n# ARGS: $1=text\n# EX: [KEY]a[/KEY]")";
    auto row = [&](const char *key, const QByteArray &extra) {
        return QByteArray(R"({"key":")") + key + R"(","type":"fn","target":"upper","content":)"
               + QByteArray(docs).replace("KEY", key) + extra + "}";
    };
    QTest::addRow("no doc lines") << QByteArray(R"({"key":"BARE_ROW","type":"fn","target":"upper"})")
                                  << QStringLiteral("--allow-noncompliant")
                                  << QStringList{QStringLiteral("H010"), QStringLiteral("H013")}
                                  << QStringLiteral("noncompliant");
    QTest::addRow("include cycle") << row("CYCLE_A", R"(,"includes":"CYCLE_B")") + "," + row("CYCLE_B", R"(,"includes":"CYCLE_A")")
                                   << QStringLiteral("--allow-noncompliant") << QStringList{QStringLiteral("H061")}
                                   << QStringLiteral("noncompliant");
    QTest::addRow("runner 'evil'") << row("EVIL_ROW", R"(,"runner":"evil")") << QString()
                                   << QStringList{QStringLiteral("V002")} << QString();
    QTest::addRow("updated_at 'x'") << row("STAMP_ROW", R"(,"updated_at":"x")") << QStringLiteral("--restamp")
                                    << QStringList{QStringLiteral("V003")} << QStringLiteral("restamped");
    QTest::addRow("several invalid rows, each named")
        << row("EVIL_ROW", R"(,"runner":"evil")") + "," + row("STAMP_ROW", R"(,"updated_at":"x")") + ","
               + QByteArray(R"({"key":"SOAP_ROW","type":"soap"})")
        << QString() << QStringList{QStringLiteral("V002"), QStringLiteral("V003"), QStringLiteral("V001")}
        << QString();
}

void TestCapdeskctl::importRefusals()
{
    QFETCH(QByteArray, rows);
    QFETCH(QString, option);
    QFETCH(QStringList, codes);
    QFETCH(QString, listed);

    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QByteArray before = ctl({u"export"_s, u"--db"_s, db()}).out;
    const QString file = m_dir->filePath(u"rows.json"_s);
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"([{"key":"GOOD_ROW","type":"fn","target":"upper","content":"# WHAT: Upper-cases text.\n# WHEN_TO_USE: capitals.\n# ARGS: $1=text\n# EX: [GOOD_ROW]a[/GOOD_ROW]"},)"
              + rows + "]");
    out.close();

    const Run refused = ctl({u"import"_s, file, u"--db"_s, db()});
    QCOMPARE(refused.exitCode, 4);
    const QString error = refused.json().value(u"error"_s).toString();
    QStringList found;
    for (const QJsonValue &finding : refused.json().value(u"findings"_s).toArray())
        found.append(finding.toObject().value(u"code"_s).toString());
    for (const QString &code : codes) {
        QVERIFY2(error.contains(code), qPrintable(error));
        QVERIFY2(found.contains(code), refused.out.constData());
    }
    QCOMPARE(ctl({u"export"_s, u"--db"_s, db()}).out, before); // all or nothing
    if (option.isEmpty()) {
        QCOMPARE(ctl({u"import"_s, file, u"--allow-noncompliant"_s, u"--db"_s, db()}).exitCode, 4);
        QCOMPARE(ctl({u"export"_s, u"--db"_s, db()}).out, before);
        return;
    }
    const Run imported = ctl({u"import"_s, file, option, u"--db"_s, db()});
    QVERIFY2(imported.exitCode == 0, imported.out.constData());
    QCOMPARE(imported.json().value(u"imported"_s).toInt(), rows.count("\"key\"") + 1);
    const QJsonArray list = imported.json().value(listed).toArray();
    QVERIFY2(!list.isEmpty(), imported.out.constData());
    if (listed == u"noncompliant"_s) {
        QStringList listedCodes;
        for (const QJsonValue &finding : list)
            listedCodes.append(finding.toObject().value(u"code"_s).toString());
        for (const QString &code : codes)
            QVERIFY2(listedCodes.contains(code), imported.out.constData());
    }
}

void TestCapdeskctl::importTakesTheDirectoryFromAWholeDatabase()
{
    const Run run = ctl({u"import"_s, QStringLiteral(CAPDESK_TESTDATA_DIR "/d1_whole_database.sql"), u"--db"_s, db()});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"imported"_s).toInt(), 2);
    const QJsonArray skipped = run.json().value(u"skipped"_s).toArray();
    QVERIFY2(skipped.contains(u"table 'd1_migrations' (3 INSERTs)"_s), run.out.constData());
    QVERIFY2(skipped.contains(u"table 'receipts' (2 INSERTs)"_s), run.out.constData());
    QCOMPARE(ctl({u"get"_s, u"SHOUT"_s, u"--db"_s, db()}).exitCode, 0);
}

void TestCapdeskctl::putNamesTheBrokenRule()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    const Run run = ctl({u"put"_s, u"--db"_s, db()}, R"({"key":"lower_key","type":"fn","target":"upper"})");
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.json().value(u"error"_s).toString().contains(u"H001 key_format"_s), run.out.constData());
}

void TestCapdeskctl::badImportIsRefusedAndChangesNothing()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode, 0);
    const QByteArray before = ctl({QStringLiteral("export"), QStringLiteral("--db"), db()}).out;
    const QString bad = m_dir->filePath(QStringLiteral("bad.sql"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("INSERT INTO directory (key, type, updated_at) VALUES ('FRESH_ROW', 'fn', '2026-07-26T04:36:19.832Z');\n"
               "INSERT INTO directory (key, type, updated_at) VALUES ('CRON_ROW', 'cron', '2026-07-26T04:36:19.832Z');\n");
    file.close();
    const Run run = ctl({QStringLiteral("import"), bad, QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("line 2")), run.out.constData());
    QCOMPARE(ctl({QStringLiteral("export"), QStringLiteral("--db"), db()}).out, before);
}

void TestCapdeskctl::optionsMayStandAnywhere()
{
    QCOMPARE(ctl({QStringLiteral("--db"), db(), QStringLiteral("init"), QStringLiteral("--sample")}).exitCode, 0);
    const Run run = ctl({QStringLiteral("--db=") + db(), QStringLiteral("get"), QStringLiteral("NOW")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json().value(QStringLiteral("target")).toString(), QStringLiteral("now"));
}

void TestCapdeskctl::defaultDirectoryLivesInXdgData()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_dir->filePath(QStringLiteral("xdg")));
    const ProcessRun::Result result =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), {QStringLiteral("init")}, {}, environment);
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, 0);
    QVERIFY(QFileInfo::exists(m_dir->filePath(QStringLiteral("xdg/capdesk/directory.db"))));
}

void TestCapdeskctl::invokeRunsAndReportsLikeTheServer()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("BASE64_ENCODE"), QStringLiteral("hello|world"),
                         QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject response = run.json();
    QCOMPARE(response.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("ran")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("result")).toString(), QStringLiteral("aGVsbG98d29ybGQ="));
    QVERIFY(QRegularExpression(QStringLiteral("^t_[0-9a-z]{8}$")).match(response.value(QStringLiteral("trace")).toString()).hasMatch());
    const QString id = response.value(QStringLiteral("proof")).toObject().value(QStringLiteral("invocation_id")).toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^inv_[0-9a-z]{10}$")).match(id).hasMatch(), qPrintable(id));

    const Run failed = ctl({QStringLiteral("invoke"), QStringLiteral("FAIL_WITH"), QStringLiteral("boom"), QStringLiteral("--db"), db()});
    QCOMPARE(failed.exitCode, 1);
    QCOMPARE(failed.json().value(QStringLiteral("result")).toString(), QStringLiteral("ERR: boom"));
    QCOMPARE(failed.json().value(QStringLiteral("ok")).toBool(true), false);

    const Run unknown = ctl({QStringLiteral("invoke"), QStringLiteral("NO_SUCH_ROW"), QStringLiteral("--db"), db()});
    QCOMPARE(unknown.exitCode, 3);
    QCOMPARE(unknown.json(), (QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("ran"), false},
                                          {QStringLiteral("error"), QStringLiteral("unknown key NO_SUCH_ROW")}}));
}

void TestCapdeskctl::invokeShapeSendsNothingAndNamesMissingSecrets()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("GROK_MODELS"), QStringLiteral("--shape"), QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject response = run.json();
    QCOMPARE(response.value(QStringLiteral("shape")).toBool(), true);
    QCOMPARE(response.value(QStringLiteral("runner")).toString(), QStringLiteral("http"));
    const QJsonObject request = response.value(QStringLiteral("request")).toObject();
    QCOMPARE(request.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
    QCOMPARE(request.value(QStringLiteral("url")).toString(), QStringLiteral("https://api.x.ai/v1/models"));
    QCOMPARE(request.value(QStringLiteral("headers")).toObject(), QJsonObject());
    QCOMPARE(response.value(QStringLiteral("notes")).toArray().first().toString(),
             QStringLiteral("GROK_API_KEY is not set: no credential will be sent"));
}

void TestCapdeskctl::invokeHttpAgainstALocalUpstream()
{
    QHttpServer upstream;
    QString seenQuery;
    upstream.route(QStringLiteral("/v1/forecast"), [&seenQuery](const QHttpServerRequest &request) {
        seenQuery = request.url().query(QUrl::FullyDecoded);
        return QHttpServerResponse(QJsonObject{{QStringLiteral("current"), QJsonObject{{QStringLiteral("temperature_2m"), 15.7}}}});
    });
    const quint16 port = upstream.listen(QHostAddress::LocalHost, 0);
    QVERIFY(port != 0);

    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const QByteArray row = QStringLiteral(R"({"key":"ZZ_TEST_TEMPERATURE","type":"http",
        "target":"GET http://127.0.0.1:%1/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m",
        "content":"# WHAT: Current temperature\n# WHEN_TO_USE: tests\n# ARGS: $1=lat | $2=lon\n# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n# OUTPUT: JSON"})")
                               .arg(port)
                               .toUtf8();
    QCOMPARE(ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row).exitCode, 0);
    const Run run = ctl({QStringLiteral("invoke"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("37.77|-122.42"),
                         QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(seenQuery, QStringLiteral("latitude=37.77&longitude=-122.42&current=temperature_2m"));
    QCOMPARE(run.json().value(QStringLiteral("result")).toString(),
             QStringLiteral(R"(HTTP 200:{"current":{"temperature_2m":15.7}})"));
}

void TestCapdeskctl::receiptsConfirmAndVerifyOffline()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const Run run = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject proof = run.json().value(u"proof"_s).toObject();
    QCOMPARE(proof.value(u"ok"_s).toBool(), true);
    const QString id = proof.value(u"invocation_id"_s).toString();
    QCOMPARE(proof.value(u"receipt"_s).toObject().value(u"invocation_id"_s).toString(), id);

    const Run listed = ctl({u"receipts"_s, u"--key"_s, u"BASE64_ENCODE"_s, u"--db"_s, db()});
    QCOMPARE(listed.exitCode, 0);
    QCOMPARE(listed.json().value(u"receipts"_s).toArray().size(), 1);
    QCOMPARE(ctl({u"receipts"_s, u"--key"_s, u"NOW"_s, u"--db"_s, db()}).json().value(u"receipts"_s).toArray().size(), 0);

    // The row goes; its receipt stays and still confirms.
    QCOMPARE(ctl({u"delete"_s, u"BASE64_ENCODE"_s, u"--db"_s, db()}).exitCode, 0);
    const Run confirmed = ctl({u"confirm"_s, id, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 0);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(), true);
    QCOMPARE(confirmed.json().value(u"status"_s).toString(), u"PROVEN_MATERIAL_RESULT"_s);
    const Run unknown = ctl({u"confirm"_s, u"inv_zzzzzzzzzz"_s, u"--db"_s, db()});
    QCOMPARE(unknown.exitCode, 3);
    QCOMPARE(unknown.json().value(u"status"_s).toString(), u"UNKNOWN_INVOCATION"_s);

    // Offline: the saved response and the exported public key, no directory.
    const QString responseFile = m_dir->filePath(u"response.json"_s);
    const QString keyFile = m_dir->filePath(u"key.pem"_s);
    QFile response(responseFile);
    QVERIFY(response.open(QIODevice::WriteOnly));
    response.write(run.out);
    response.close();
    QCOMPARE(ctl({u"public-key"_s, u"--out"_s, keyFile, u"--db"_s, db()}).exitCode, 0);
    const QString elsewhere = m_dir->filePath(u"never-created.db"_s);
    const Run valid = ctl({u"verify-receipt"_s, responseFile, u"--public-key"_s, keyFile, u"--db"_s, elsewhere});
    QCOMPARE(valid.exitCode, 0);
    QCOMPARE(valid.json().value(u"signature"_s).toString(), u"valid"_s);
    QVERIFY(!QFile::exists(elsewhere));

    QByteArray tamperedText = run.out;
    tamperedText.replace("\"material\": true", "\"material\": false");
    QVERIFY(tamperedText != run.out);
    QVERIFY(response.open(QIODevice::WriteOnly));
    response.write(tamperedText);
    response.close();
    const Run tampered = ctl({u"verify-receipt"_s, responseFile, u"--public-key"_s, keyFile});
    QCOMPARE(tampered.exitCode, 1);
    QCOMPARE(tampered.json().value(u"signature"_s).toString(), u"invalid"_s);
}

void TestCapdeskctl::tokensGateInvocations()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const Run created = ctl({u"token"_s, u"create"_s, u"--audience"_s, u"planner"_s, u"--keys"_s, u"BASE64_ENCODE"_s,
                             u"--payload-ceiling"_s, u"4"_s, u"--db"_s, db()});
    QCOMPARE(created.exitCode, 0);
    const QString value = created.json().value(u"value"_s).toString();
    const QString id = created.json().value(u"token"_s).toObject().value(u"id"_s).toString();
    QVERIFY(value.startsWith(u"cdt_"_s));

    auto invokeWith = [&](const QString &key, const QString &body, const QString &audience) {
        return ctl({u"invoke"_s, key, body, u"--token"_s, value, u"--audience"_s, audience, u"--db"_s, db()});
    };
    const Run allowed = invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"planner"_s);
    QCOMPARE(allowed.exitCode, 0);
    QCOMPARE(allowed.json().value(u"proof"_s).toObject().value(u"receipt"_s).toObject().value(u"actor"_s).toString(),
             u"token:"_s + id);
    const Run otherAudience = invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"someone"_s);
    QCOMPARE(otherAudience.exitCode, 4);
    QCOMPARE(otherAudience.json().value(u"error"_s).toString(), u"audience_mismatch"_s);
    QCOMPARE(invokeWith(u"NOW"_s, QString(), u"planner"_s).json().value(u"error"_s).toString(), u"scope:NOW"_s);
    QCOMPARE(invokeWith(u"BASE64_ENCODE"_s, u"hello"_s, u"planner"_s).json().value(u"error"_s).toString(),
             u"payload_ceiling:5>4"_s);

    QCOMPARE(ctl({u"token"_s, u"revoke"_s, id, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(invokeWith(u"BASE64_ENCODE"_s, u"hi"_s, u"planner"_s).json().value(u"error"_s).toString(), u"revoked"_s);
    const Run list = ctl({u"token"_s, u"list"_s, u"--db"_s, db()});
    QCOMPARE(list.json().value(u"tokens"_s).toArray().size(), 1);
    QVERIFY(!list.out.contains(value.toUtf8()));

    // Every refusal is in the event log.
    const QJsonArray events = ctl({u"log"_s, u"--key"_s, u"NOW"_s, u"--db"_s, db()}).json().value(u"events"_s).toArray();
    QVERIFY(std::any_of(events.begin(), events.end(), [](const QJsonValue &event) {
        return event.toObject().value(u"kind"_s).toString() == u"CAPABILITY_REFUSED"_s;
    }));
}

void TestCapdeskctl::logRecordsMutationsAndVerifies()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    const QByteArray row = R"({"key":"ZZ_LOG","type":"fn","target":"upper","category":"testing","content":)"
                           R"("# WHAT: Upper-cases its text.\n# WHEN_TO_USE: a test needs a row.\n# ARGS: $1=text\n)"
                           R"(# EX: [ZZ_LOG]hi[/ZZ_LOG]\n# OUTPUT: the text in upper case."})";
    QCOMPARE(ctl({u"put"_s, u"--db"_s, db()}, row).exitCode, 0);
    QCOMPARE(ctl({u"patch"_s, u"ZZ_LOG"_s, u"--db"_s, db()}, R"({"target":"lower"})").exitCode, 0);
    QCOMPARE(ctl({u"delete"_s, u"ZZ_LOG"_s, u"--db"_s, db()}).exitCode, 0);
    const QJsonArray events = ctl({u"log"_s, u"--key"_s, u"ZZ_LOG"_s, u"--db"_s, db()}).json().value(u"events"_s).toArray();
    QCOMPARE(events.size(), 3);
    QCOMPARE(events.at(0).toObject().value(u"action"_s).toString(), u"delete"_s);
    QCOMPARE(events.at(1).toObject().value(u"after"_s).toObject().value(u"target"_s).toString(), u"lower"_s);
    QCOMPARE(events.at(2).toObject().value(u"action"_s).toString(), u"create"_s);
    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db()});
    QCOMPARE(verified.exitCode, 0);
    QCOMPARE(verified.json().value(u"intact"_s).toBool(), true);
}

void TestCapdeskctl::logVerifyNamesTamperingAndChecksAnAnchor()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    QCOMPARE(anchored.json().value(u"type"_s).toString(), u"capdesk.log_anchor"_s);
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(anchored.out);
    file.close();
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"ho"_s, u"--db"_s, db()}).exitCode, 0);
    const Run clean = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(clean.exitCode, 0);
    QCOMPARE(clean.json().value(u"anchor"_s).toBool(), true);
    QCOMPARE(clean.json().value(u"receipts"_s).toObject().value(u"checked"_s).toInteger(), 2);
    QCOMPARE(ctl({u"log"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()}).exitCode, 2);

    const QString failure = RawSql::exec(db(), {u"DROP TRIGGER events_refuse_delete"_s,
                                                u"DELETE FROM events"_s, u"DELETE FROM event_chain_head"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const auto codes = [](const Run &run) {
        QStringList list;
        for (const QJsonValue &finding : run.json().value(u"findings"_s).toArray())
            list.append(finding.toObject().value(u"code"_s).toString());
        return list;
    };
    const Run wiped = ctl({u"log"_s, u"--verify"_s, u"--db"_s, db()});
    QCOMPARE(wiped.exitCode, 1);
    QCOMPARE(wiped.json().value(u"intact"_s).toBool(true), false);
    QVERIFY2(codes(wiped).contains(u"event_log_wiped"_s), wiped.out.constData());
    const Run pastAnchor = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(pastAnchor.exitCode, 1);
    QVERIFY2(codes(pastAnchor).contains(u"anchor_events_truncated"_s), pastAnchor.out.constData());
    // A log that does not verify gets no anchor.
    QCOMPARE(ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()}).exitCode, 1);
}

// A wipe of everything the log and the receipts hold, done by someone without the key:
// against the anchor it is a wipe, not a replaced key.
void TestCapdeskctl::logVerifyNamesAWipeBehindAnAnchor()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(anchored.out);
    file.close();

    const QString failure =
        RawSql::exec(db(), {u"DROP TRIGGER events_refuse_delete"_s, u"DROP TRIGGER receipts_refuse_delete"_s,
                            u"DROP TRIGGER receipt_chain_links_refuse_delete"_s, u"DELETE FROM events"_s,
                            u"DELETE FROM event_chain_head"_s, u"DELETE FROM receipt_chain_links"_s,
                            u"DELETE FROM receipts"_s, u"DELETE FROM receipt_chain_heads"_s,
                            u"DELETE FROM sqlite_sequence"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const Run wiped = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(wiped.exitCode, 1);
    const QStringList codes = findingCodes(wiped.json());
    QVERIFY2(codes.contains(u"event_log_wiped"_s), wiped.out.constData());
    QVERIFY2(codes.contains(u"anchor_events_truncated"_s), wiped.out.constData());
    QVERIFY2(codes.contains(u"anchor_receipts_truncated"_s), wiped.out.constData());
    QVERIFY2(!codes.contains(u"anchor_key_unknown"_s), wiped.out.constData());

    // An anchor made by another directory, with its own key, is one the directory does not hold.
    const QString otherDb = m_dir->filePath(u"other.db"_s);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, otherDb}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, otherDb}).exitCode, 0);
    const Run foreign = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, otherDb});
    QCOMPARE(foreign.exitCode, 0);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(foreign.out);
    file.close();
    const Run replaced = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(replaced.exitCode, 1);
    QVERIFY2(findingCodes(replaced.json()).contains(u"anchor_key_unknown"_s), replaced.out.constData());
}

void TestCapdeskctl::logVerifyNamesAMalformedAnchor_data()
{
    QTest::addColumn<AnchorDefect>("defect");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << AnchorDefect::Empty << u"is empty"_s;
    QTest::newRow("not JSON") << AnchorDefect::NotJson << u"is not a JSON object"_s;
    QTest::newRow("truncated") << AnchorDefect::Truncated << u"is not a JSON object"_s;
    QTest::newRow("an array") << AnchorDefect::NotAnObject << u"is not a JSON object"_s;
    QTest::newRow("wrong type") << AnchorDefect::WrongType << u"not a Capdesk log anchor"_s;
    QTest::newRow("fields missing") << AnchorDefect::MissingFields << u"needs 'made_at'"_s;
    QTest::newRow("negative seq") << AnchorDefect::BadSeq << u"'seq' must be a whole number"_s;
    QTest::newRow("signature not base64") << AnchorDefect::BadSignatureBase64 << u"'signature'"_s;
    QTest::newRow("signature too short") << AnchorDefect::ShortSignature << u"'signature'"_s;
    QTest::newRow("public key not a key") << AnchorDefect::BadPublicKey << u"'public_key'"_s;
    QTest::newRow("huge") << AnchorDefect::Huge << u"is larger than"_s;
}

void TestCapdeskctl::logVerifyNamesAMalformedAnchor()
{
    QFETCH(AnchorDefect, defect);
    QFETCH(QString, reason);
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, db()}).exitCode, 0);
    const Run anchored = ctl({u"log"_s, u"--anchor"_s, u"--db"_s, db()});
    QCOMPARE(anchored.exitCode, 0);
    QJsonObject anchor = anchored.json();
    const auto compact = [](const QJsonObject &json) {
        return QJsonDocument(json).toJson(QJsonDocument::Compact);
    };
    QByteArray bytes;
    switch (defect) {
    case AnchorDefect::Empty:
        break;
    case AnchorDefect::NotJson:
        bytes = "this is not an anchor";
        break;
    case AnchorDefect::Truncated:
        bytes = anchored.out.left(anchored.out.size() / 2);
        break;
    case AnchorDefect::NotAnObject:
        bytes = "[" + compact(anchor) + "]";
        break;
    case AnchorDefect::WrongType:
        anchor.insert(u"type"_s, u"something.else"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::MissingFields:
        anchor.remove(u"public_key"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadSeq:
        anchor.insert(u"events"_s, QJsonObject{{u"seq"_s, -3}, {u"hash"_s, QString(64, u'0')}});
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadSignatureBase64:
        anchor.insert(u"signature"_s, u"!!not base64!!"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::ShortSignature:
        anchor.insert(u"signature"_s, u"AAAA"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::BadPublicKey:
        anchor.insert(u"public_key"_s, u"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"_s);
        bytes = compact(anchor);
        break;
    case AnchorDefect::Huge:
        bytes = compact(anchor) + QByteArray(17 * 1024 * 1024, ' ');
        break;
    }
    const QString anchorFile = m_dir->filePath(u"anchor.json"_s);
    QFile file(anchorFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();

    const Run verified = ctl({u"log"_s, u"--verify"_s, u"--anchor"_s, anchorFile, u"--db"_s, db()});
    QCOMPARE(verified.exitCode, 1);
    QCOMPARE(verified.json().value(u"error"_s).toString(), u"anchor_invalid"_s);
    QVERIFY2(verified.json().value(u"reason"_s).toString().contains(reason), verified.out.constData());
    QCOMPARE(verified.json().value(u"intact"_s).toBool(true), false);
    QVERIFY2(findingCodes(verified.json()) == QStringList{u"anchor_invalid"_s}, verified.out.constData());
    QVERIFY2(!verified.err.contains("usage"), verified.err.constData());
    QVERIFY2(verified.err.contains("anchor_invalid"), verified.err.constData());
}

void TestCapdeskctl::confirmRefusesARowHoldingAnotherReceipt()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const auto invokeId = [this](const QString &body) {
        return ctl({u"invoke"_s, u"BASE64_ENCODE"_s, body, u"--db"_s, db()})
            .json()
            .value(u"proof"_s)
            .toObject()
            .value(u"invocation_id"_s)
            .toString();
    };
    const QString asked = invokeId(u"a"_s);
    const QString other = invokeId(u"b"_s);
    QVERIFY(!asked.isEmpty() && !other.isEmpty());
    const QString failure = RawSql::exec(
        db(),
        {u"DROP TRIGGER receipts_refuse_update"_s,
         u"UPDATE receipts SET receipt_json = (SELECT receipt_json FROM receipts WHERE invocation_id = '%1') "
         "WHERE invocation_id = '%2'"_s.arg(other, asked)});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const Run confirmed = ctl({u"confirm"_s, asked, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 1);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmed.json().value(u"reason"_s).toString(), u"receipt_mismatch"_s);
    QCOMPARE(ctl({u"confirm"_s, other, u"--db"_s, db()}).exitCode, 0);
}

void TestCapdeskctl::confirmNamesWhyASignatureFails_data()
{
    // {id}: the invocation asked for; {other}: another directory's file, with a key of its own.
    QTest::addColumn<QStringList>("tampering");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("error");
    const QString row = u"WHERE invocation_id = '{id}'"_s;
    QTest::newRow("a signed field edited")
        << QStringList{u"DROP TRIGGER receipts_refuse_update"_s,
                       u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"cost_usd\":0', "
                       "'\"cost_usd\":7') "_s
                           + row}
        << u"signature_mismatch"_s << u"edited after it was written"_s;
    QTest::newRow("the signature garbled")
        << QStringList{u"DROP TRIGGER receipts_refuse_update"_s,
                       u"UPDATE receipts SET receipt_json = replace(receipt_json, '\"signature\":\"', "
                       "'\"signature\":\"!!') "_s
                           + row}
        << u"signature_malformed"_s << u"base64"_s;
    QTest::newRow("the directory's key swapped for another")
        << QStringList{u"ATTACH DATABASE '{other}' AS other"_s, u"DELETE FROM signing_keys"_s,
                       u"INSERT INTO signing_keys SELECT * FROM other.signing_keys"_s}
        << u"key_unknown"_s << u"does not list"_s;
    QTest::newRow("no key listed") << QStringList{u"DELETE FROM signing_keys"_s} << u"no_key"_s
                                   << u"no public key"_s;
}

void TestCapdeskctl::confirmNamesWhyASignatureFails()
{
    QFETCH(QStringList, tampering);
    QFETCH(QString, reason);
    QFETCH(QString, error);
    const QString otherDb = m_dir->filePath(u"other.db"_s);
    for (const QString &file : {db(), otherDb}) {
        QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, file}).exitCode, 0);
        QCOMPARE(ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--db"_s, file}).exitCode, 0);
    }
    const QString id = ctl({u"invoke"_s, u"BASE64_ENCODE"_s, u"asked"_s, u"--db"_s, db()})
                           .json()
                           .value(u"proof"_s)
                           .toObject()
                           .value(u"invocation_id"_s)
                           .toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(ctl({u"confirm"_s, id, u"--db"_s, db()}).exitCode, 0);
    for (QString &statement : tampering)
        statement.replace(u"{id}"_s, id).replace(u"{other}"_s, otherDb);
    const QString failure = RawSql::exec(db(), tampering);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    const Run confirmed = ctl({u"confirm"_s, id, u"--db"_s, db()});
    QCOMPARE(confirmed.exitCode, 1);
    QCOMPARE(confirmed.json().value(u"confirmed"_s).toBool(true), false);
    QCOMPARE(confirmed.json().value(u"invocation_id"_s).toString(), id);
    QVERIFY2(confirmed.json().value(u"signature"_s).toString() != u"valid"_s, confirmed.out.constData());
    QCOMPARE(confirmed.json().value(u"reason"_s).toString(), reason);
    QVERIFY2(confirmed.json().value(u"error"_s).toString().contains(error), confirmed.out.constData());
}

void TestCapdeskctl::flowPlanPrintsTheParsedFlow()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const QByteArray flow = R"({"key":"ZZ_FLOW","type":"flow","category":"testing","content":)"
                            R"("# WHAT: Demo flow.\n# WHEN_TO_USE: a test needs a flow.\n# ARGS: $1=text\n)"
                            R"(# EX: [ZZ_FLOW]hi[/ZZ_FLOW]\n# OUTPUT: the echoed line.\n)"
                            R"(NOW > { UPPERCASE:$PREV | BASE64_ENCODE:a|b } => BOTH > ECHO:$BOTH"})";
    QCOMPARE(ctl({u"put"_s, u"--db"_s, db()}, flow).exitCode, 0);
    const Run plan = ctl({u"flow-plan"_s, u"ZZ_FLOW"_s, u"--db"_s, db()});
    QCOMPARE(plan.exitCode, 0);
    const QJsonArray steps = plan.json().value(u"steps"_s).toArray();
    QCOMPARE(steps.size(), 3);
    QVERIFY2(plan.out.contains("BOTH"), plan.out.constData());
    QCOMPARE(ctl({u"flow-plan"_s, u"NOPE"_s, u"--db"_s, db()}).exitCode, 3);
    // The hygiene gate refuses a flow that does not parse, so it arrives the way legacy
    // rows do: by import.
    const QString brokenFile = m_dir->filePath(u"broken.json"_s);
    QFile brokenRows(brokenFile);
    QVERIFY(brokenRows.open(QIODevice::WriteOnly));
    brokenRows.write(R"([{"key":"ZZ_BROKEN","type":"flow","content":"# WHAT: x\nNOW > { UPPERCASE:a"}])");
    brokenRows.close();
    QCOMPARE(ctl({u"import"_s, brokenFile, u"--allow-noncompliant"_s, u"--db"_s, db()}).exitCode, 0);
    const Run bad = ctl({u"flow-plan"_s, u"ZZ_BROKEN"_s, u"--db"_s, db()});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.json().contains(u"line"_s), bad.out.constData());
}

void TestCapdeskctl::lintContractAndMcpTools()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    const Run clean = ctl({u"lint"_s, u"--db"_s, db()});
    QCOMPARE(clean.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(clean.out).array().size(), 0);

    const QString legacy = m_dir->filePath(u"legacy.json"_s);
    QFile rows(legacy);
    QVERIFY(rows.open(QIODevice::WriteOnly));
    rows.write(R"([{"key":"OLD_ROW","type":"fn","target":"upper","content":"# WHAT: old"}])");
    rows.close();
    QCOMPARE(ctl({u"import"_s, legacy, u"--allow-noncompliant"_s, u"--db"_s, db()}).exitCode, 0);
    const Run dirty = ctl({u"lint"_s, u"OLD_ROW"_s, u"--db"_s, db()});
    QCOMPARE(dirty.exitCode, 1);
    QStringList codes;
    for (const QJsonValue &finding : QJsonDocument::fromJson(dirty.out).array()) {
        QCOMPARE(finding.toObject().value(u"key"_s).toString(), u"OLD_ROW"_s);
        codes.append(finding.toObject().value(u"code"_s).toString());
    }
    for (const char *code : {"H011", "H012", "H013"})
        QVERIFY2(codes.contains(QString::fromLatin1(code)), qPrintable(codes.join(u',')));
    QCOMPARE(ctl({u"lint"_s, u"NO_SUCH_ROW"_s, u"--db"_s, db()}).exitCode, 3);

    const Run contract = ctl({u"contract"_s, u"BASE64_ENCODE"_s, u"--db"_s, db()});
    QCOMPARE(contract.exitCode, 0);
    QVERIFY(contract.out.contains("BASE64_ENCODE"));
    QVERIFY(contract.out.contains("/api/dispatch"));
    const Run tools = ctl({u"mcp-tools"_s, u"--db"_s, db()});
    QCOMPARE(tools.exitCode, 0);
    QVERIFY(!tools.json().value(u"tools"_s).toArray().isEmpty());
    QVERIFY(tools.out.contains("\"BASE64_ENCODE\""));
}

namespace {

const QByteArray kServedKey = QByteArrayLiteral("tst-ctl-served-owner-key-5e1b7a93c0d2");

ProcessRun::Result ctlWithKey(const QStringList &arguments, const QByteArray &key, const QByteArray &stdinData = {})
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("CAPDESK_TERMINAL_KEY"));
    if (!key.isEmpty())
        environment.insert(QStringLiteral("CAPDESK_TERMINAL_KEY"), QString::fromLatin1(key));
    return ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, stdinData, environment);
}

} // namespace

// SPEC §11's --server: the row commands, invoke and confirm against a real
// `capdeskctl serve`, with the owner key from the environment.
void TestCapdeskctl::serverModeRunsTheRowCommands()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    const auto remote = [&](QStringList arguments, const QByteArray &stdinData = {}) {
        arguments << u"--server"_s << server;
        return ctlWithKey(arguments, kServedKey, stdinData);
    };
    const QByteArray row = R"({"key":"ZZ_REMOTE_ECHO","type":"fn","target":"echo","category":"tools",
        "content":"# WHAT: Echo over a server\n# WHEN_TO_USE: tests\n# ARGS: $1=text\n# EX: [ZZ_REMOTE_ECHO]hi[/ZZ_REMOTE_ECHO]\n# OUTPUT: the text",
        "examples":"[\"hi\"]"})";
    ProcessRun::Result run = remote({u"put"_s}, row);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QJsonDocument::fromJson(run.out).object().value(u"created"_s).toBool());
    QCOMPARE(remote({u"patch"_s, u"ZZ_REMOTE_ECHO"_s}, R"({"seq":3})").exitCode, 0);
    run = remote({u"patch"_s, u"ZZ_REMOTE_ECHO"_s}, R"({"runner":"x"})");
    QCOMPARE(run.exitCode, 4);
    QVERIFY(run.err.contains("no recognized fields"));
    run = remote({u"get"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"seq"_s).toInt(), 3);

    run = remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"hello"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject invoked = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(invoked.value(u"result"_s).toString(), u"hello"_s);
    const QJsonObject proof = invoked.value(u"proof"_s).toObject();
    const QString id = proof.value(u"invocation_id"_s).toString();
    QCOMPARE(proof.value(u"public_receipt"_s).toString(), server + u"/receipt/"_s + id);
    run = remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"hello"_s, u"--shape"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"shape"_s), QJsonValue(true));
    // confirm is keyless.
    run = ctlWithKey({u"confirm"_s, id, u"--server"_s, server}, {});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"confirmed"_s), QJsonValue(true));

    QCOMPARE(remote({u"lint"_s, u"ZZ_REMOTE_ECHO"_s}).exitCode, 0);
    run = remote({u"contract"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("ZZ_REMOTE_ECHO"));
    run = remote({u"export"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("\"ZZ_REMOTE_ECHO\""));
    run = remote({u"delete"_s, u"ZZ_REMOTE_ECHO"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"deleted"_s).toInt(), 1);
    QCOMPARE(remote({u"get"_s, u"ZZ_REMOTE_ECHO"_s}).exitCode, 3);
    QCOMPARE(remote({u"invoke"_s, u"ZZ_REMOTE_ECHO"_s, u"x"_s}).exitCode, 3);

    // The key never reaches the server's log, and the write was the server's actor.
    QVERIFY(!serve.standardError().contains(kServedKey));
    QVERIFY(serve.standardError().contains("PATCH /api/directory/ZZ_REMOTE_ECHO 200"));
}

void TestCapdeskctl::serverModeRefusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("serverUp");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("wrong key: 4") << QStringList{u"delete"_s, u"ZZ_ANY"_s} << QByteArray("wrong-wrong-wrong-wrong-key")
                                  << true << 4 << u"the server refused the owner key"_s;
    QTest::addRow("no key: 4") << QStringList{u"delete"_s, u"ZZ_ANY"_s} << QByteArray() << true << 4
                               << u"the server wants an owner key and none was given"_s;
    QTest::addRow("empty key: 3") << QStringList{u"get"_s, QString()} << kServedKey << true << 3
                                  << u"no row ''"_s;
    QTest::addRow("contract of an empty key: 3") << QStringList{u"contract"_s, QString()} << kServedKey << true
                                                 << 3 << u"no row ''"_s;
    QTest::addRow("server down: 5") << QStringList{u"get"_s, u"ZZ_ANY"_s} << kServedKey << false << 5
                                    << u"did not answer: connection refused"_s;
    QTest::addRow("receipts are local: 2") << QStringList{u"receipts"_s} << kServedKey << true << 2
                                           << u"receipts lists a local directory's receipts only"_s;
    QTest::addRow("log is local: 2") << QStringList{u"log"_s} << kServedKey << true << 2
                                     << u"log works on a local directory file only"_s;
    QTest::addRow("--db and --server: 2") << QStringList{u"get"_s, u"ZZ_ANY"_s, u"--db"_s, u"x.db"_s} << kServedKey
                                          << true << 2 << u"--db and --server name two directories"_s;
}

void TestCapdeskctl::serverModeRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, key);
    QFETCH(bool, serverUp);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    if (!serverUp)
        serve.kill();
    const ProcessRun::Result run = ctlWithKey(arguments + QStringList{u"--server"_s, server}, key);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!run.err.contains(kServedKey) && !run.out.contains(kServedKey));
    QCOMPARE(ctlWithKey({u"get"_s, u"ZZ_ANY"_s, u"--server"_s, u"ftp://nowhere"_s}, key).exitCode, 2);
}

// --server https://… with the CA that signed the server's certificate: the row commands
// and invoke work as over http, with --ca-file and with CAPDESK_CA_FILE.
void TestCapdeskctl::serverOverHttps()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    serve.setTls(m_certificates.certificateFile(TestCertificates::Server::Loopback),
                 m_certificates.keyFile(TestCertificates::Server::Loopback));
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    const QString server = serve.baseUrl().toString();
    QVERIFY(server.startsWith(u"https://127.0.0.1:"_s));
    const QStringList trusted{u"--server"_s, server, u"--ca-file"_s, m_certificates.caFile()};
    const QByteArray row = R"({"key":"ZZ_TLS_ECHO","type":"fn","target":"echo","category":"tools",
        "content":"# WHAT: Echo over HTTPS\n# WHEN_TO_USE: tests\n# ARGS: $1=text\n# EX: [ZZ_TLS_ECHO]hi[/ZZ_TLS_ECHO]\n# OUTPUT: the text",
        "examples":"[\"hi\"]"})";
    ProcessRun::Result run = ctlWithKey(QStringList{u"put"_s} + trusted, kServedKey, row);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(
        ctlWithKey(QStringList{u"patch"_s, u"ZZ_TLS_ECHO"_s} + trusted, kServedKey, R"({"seq":7})").exitCode,
        0);
    run = ctlWithKey(QStringList{u"invoke"_s, u"ZZ_TLS_ECHO"_s, u"over tls"_s} + trusted, kServedKey);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"result"_s).toString(), u"over tls"_s);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    environment.insert(u"CAPDESK_CA_FILE"_s, m_certificates.caFile());
    run = ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH),
                          {u"get"_s, u"ZZ_TLS_ECHO"_s, u"--server"_s, server}, {}, environment);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).object().value(u"seq"_s).toInt(), 7);
    QVERIFY(serve.standardError().contains("PATCH /api/directory/ZZ_TLS_ECHO 200"));
}

void TestCapdeskctl::serverOverHttpsRefusals_data()
{
    QTest::addColumn<TestCertificates::Server>("certificate");
    QTest::addColumn<CaFile>("caFile");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    using Server = TestCertificates::Server;
    QTest::addRow("no CA file: not trusted, 5")
        << Server::Loopback << CaFile::None << 5
        << u"did not answer: certificate for 127.0.0.1 is not trusted: "_s;
    QTest::addRow("a certificate for another name: 5")
        << Server::OtherHost << CaFile::Option << 5
        << u"did not answer: certificate for 127.0.0.1 names another host: "_s
               + QSslError(QSslError::HostNameMismatch).errorString();
    QTest::addRow("a certificate for another name, CA from CAPDESK_CA_FILE: 5")
        << Server::OtherHost << CaFile::Environment << 5
        << u"certificate for 127.0.0.1 names another host: "_s;
    QTest::addRow("--ca-file that cannot be read: 2")
        << Server::Loopback << CaFile::MissingOption << 2 << u"--ca-file: CA file "_s;
    QTest::addRow("CAPDESK_CA_FILE that cannot be read: 2")
        << Server::Loopback << CaFile::MissingEnvironment << 2 << u"CAPDESK_CA_FILE: CA file "_s;
}

void TestCapdeskctl::serverOverHttpsRefusals()
{
    QFETCH(TestCertificates::Server, certificate);
    QFETCH(CaFile, caFile);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    ServeProcess serve;
    serve.setTls(m_certificates.certificateFile(certificate), m_certificates.keyFile(certificate));
    QString error;
    QVERIFY2(serve.start(db(), kServedKey, &error), qPrintable(error));
    QStringList arguments{u"get"_s, u"ZZ_ANY"_s, u"--server"_s, serve.baseUrl().toString()};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    environment.remove(u"CAPDESK_CA_FILE"_s);
    const QString missing = m_certificates.caFile() + u".missing"_s;
    if (caFile == CaFile::Option || caFile == CaFile::MissingOption)
        arguments << u"--ca-file"_s << (caFile == CaFile::Option ? m_certificates.caFile() : missing);
    if (caFile == CaFile::Environment || caFile == CaFile::MissingEnvironment)
        environment.insert(u"CAPDESK_CA_FILE"_s,
                           caFile == CaFile::Environment ? m_certificates.caFile() : missing);
    const ProcessRun::Result run =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), arguments, {}, environment);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!serve.standardError().contains("GET /api/directory")); // nothing reached the server
}

namespace {

// Every command of capdeskctl's table, as README.md lists them; helpNamesEveryCommand
// also checks that the usage lists no other.
const QStringList kCommands{u"init"_s,         u"import"_s,   u"export"_s,       u"get"_s,
                            u"put"_s,          u"patch"_s,    u"delete"_s,       u"invoke"_s,
                            u"flow-plan"_s,    u"lint"_s,     u"contract"_s,     u"mcp-tools"_s,
                            u"serve"_s,        u"receipts"_s, u"confirm"_s,      u"verify-receipt"_s,
                            u"public-key"_s,   u"log"_s,      u"token create"_s, u"token list"_s,
                            u"token revoke"_s, u"help"_s};

} // namespace

void TestCapdeskctl::helpNamesEveryCommand_data()
{
    QTest::addColumn<QString>("command");
    for (const QString &command : kCommands)
        QTest::addRow("%s", qPrintable(command)) << command;
}

void TestCapdeskctl::helpNamesEveryCommand()
{
    QFETCH(QString, command);
    const Run help = ctl(QStringList{u"help"_s} + command.split(u' '));
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.startsWith("usage: capdeskctl " + command.toUtf8()), help.out.constData());
    QVERIFY2(help.out.contains("Options:\n"), help.out.constData());
    QVERIFY2(help.out.contains("--db FILE"), help.out.constData());
    QVERIFY(help.err.isEmpty());
    // `COMMAND --help` is the same page.
    QCOMPARE(ctl(command.split(u' ') + QStringList{u"--help"_s}).out, help.out);
    // The usage lists it, and lists nothing the table (kCommands) lacks.
    const Run usage = ctl({u"--help"_s});
    QVERIFY2(usage.out.contains("\n  " + command.toUtf8() + ' ')
                 || usage.out.contains("\n  " + command.toUtf8() + '\n'),
             usage.out.constData());
    static const QRegularExpression entry(u"^  ([a-z-]+(?: (?:create|list|revoke))?)(?: |$)"_s,
                                          QRegularExpression::MultilineOption);
    const QString list = QString::fromUtf8(usage.out).section(u"\nOnly init"_s, 0, 0);
    for (auto match = entry.globalMatch(list); match.hasNext();) {
        const QString listed = match.next().captured(1);
        QVERIFY2(kCommands.contains(listed), qPrintable(listed));
    }
}

void TestCapdeskctl::helpOfAnUnknownCommand()
{
    const Run help = ctl({u"help"_s, u"frobnicate"_s});
    QCOMPARE(help.exitCode, 2);
    QVERIFY2(help.err.contains("help: no command 'frobnicate'"), help.err.constData());
    QVERIFY(help.out.isEmpty());
    const Run group = ctl({u"help"_s, u"token"_s});
    QCOMPARE(group.exitCode, 0);
    QVERIFY2(group.out.contains("usage: capdeskctl token create")
                 && group.out.contains("usage: capdeskctl token revoke ID"),
             group.out.constData());
}

void TestCapdeskctl::optionsACommandDoesNotTake_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::addRow("init --out") << QStringList{u"init"_s, u"--out"_s, u"x"_s}
                                << u"--out does not apply to init"_s;
    QTest::addRow("get --shape") << QStringList{u"get"_s, u"K"_s, u"--shape"_s}
                                 << u"--shape does not apply to get"_s;
    QTest::addRow("lint --format=sql")
        << QStringList{u"lint"_s, u"--format=sql"_s} << u"--format does not apply to lint"_s;
    QTest::addRow("serve --token") << QStringList{u"serve"_s, u"--token"_s, u"T"_s}
                                   << u"--token does not apply to serve"_s;
    QTest::addRow("receipts --verify")
        << QStringList{u"receipts"_s, u"--verify"_s} << u"--verify does not apply to receipts"_s;
    QTest::addRow("log --limit") << QStringList{u"log"_s, u"--limit"_s, u"3"_s}
                                 << u"--limit does not apply to log"_s;
    QTest::addRow("token list --audience") << QStringList{u"token"_s, u"list"_s, u"--audience"_s, u"A"_s}
                                           << u"--audience does not apply to token list"_s;
    QTest::addRow("token revoke --label")
        << QStringList{u"token"_s, u"revoke"_s, u"ID"_s, u"--label"_s, u"L"_s}
        << u"--label does not apply to token revoke"_s;
    QTest::addRow("help --sample") << QStringList{u"help"_s, u"--sample"_s}
                                   << u"--sample does not apply to help"_s;
    QTest::addRow("an empty value") << QStringList{u"receipts"_s, u"--key="_s} << u"--key needs a value"_s;
    QTest::addRow("token alone") << QStringList{u"token"_s} << u"token needs create, list or revoke"_s;
    QTest::addRow("token frob") << QStringList{u"token"_s, u"frob"_s}
                                << u"unknown token command 'frob' (create, list or revoke)"_s;
}

void TestCapdeskctl::optionsACommandDoesNotTake()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments + QStringList{u"--db"_s, db()});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(!QFileInfo::exists(db()));
}

void TestCapdeskctl::localCommandsRefuseAServer_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const auto local = [](const QString &command) {
        return u"%1 works on a local directory file only (--db), not with --server"_s.arg(command);
    };
    QTest::addRow("init") << QStringList{u"init"_s} << local(u"init"_s);
    QTest::addRow("serve") << QStringList{u"serve"_s} << local(u"serve"_s);
    QTest::addRow("receipts")
        << QStringList{u"receipts"_s}
        << u"receipts lists a local directory's receipts only; against a server, check one "
           "with confirm INV_ID --server URL"_s;
    QTest::addRow("verify-receipt") << QStringList{u"verify-receipt"_s, u"r.json"_s}
                                    << local(u"verify-receipt"_s);
    QTest::addRow("public-key") << QStringList{u"public-key"_s} << local(u"public-key"_s);
    QTest::addRow("log") << QStringList{u"log"_s, u"--verify"_s} << local(u"log"_s);
    QTest::addRow("token create") << QStringList{u"token"_s, u"create"_s, u"--audience"_s, u"A"_s}
                                  << local(u"token create"_s);
    QTest::addRow("token list") << QStringList{u"token"_s, u"list"_s} << local(u"token list"_s);
    QTest::addRow("token revoke") << QStringList{u"token"_s, u"revoke"_s, u"ID"_s}
                                  << local(u"token revoke"_s);
}

// Refused before anything is sent: the URL names a port nothing listens on.
void TestCapdeskctl::localCommandsRefuseAServer()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = ctl(arguments + QStringList{u"--server"_s, u"http://127.0.0.1:9"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

// `serve --listen 127.0.0.1:0` takes a free port, names it on stderr once it listens, and
// answers there; the receipts' public URLs carry that port, not 0.
void TestCapdeskctl::serveOnPortZeroNamesThePortItGot()
{
    QCOMPARE(ctl({u"init"_s, u"--sample"_s, u"--db"_s, db()}).exitCode, 0);
    QProcess serve;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"CAPDESK_TERMINAL_KEY"_s, QString::fromLatin1(kServedKey));
    serve.setProcessEnvironment(environment);
    serve.start(QStringLiteral(CAPDESKCTL_PATH),
                {u"serve"_s, u"--db"_s, db(), u"--listen"_s, u"127.0.0.1:0"_s});
    QVERIFY(serve.waitForStarted());
    static const QRegularExpression listening(
        u"capdeskctl: listening on (http://127\\.0\\.0\\.1:(\\d+))\n"_s);
    QByteArray err;
    QRegularExpressionMatch match;
    QTRY_VERIFY_WITH_TIMEOUT(
        (match = listening.match(QString::fromUtf8(err += serve.readAllStandardError()))).hasMatch()
            || serve.state() == QProcess::NotRunning,
        20000);
    QVERIFY2(match.hasMatch(), err.constData());
    QVERIFY(match.captured(2).toUInt() != 0);
    const QString server = match.captured(1);
    const ProcessRun::Result invoked =
        ctlWithKey({u"invoke"_s, u"BASE64_ENCODE"_s, u"hi"_s, u"--server"_s, server}, kServedKey);
    QCOMPARE(invoked.exitCode, 0);
    const QJsonObject proof = QJsonDocument::fromJson(invoked.out).object().value(u"proof"_s).toObject();
    QCOMPARE(proof.value(u"public_receipt"_s).toString(),
             server + u"/receipt/"_s + proof.value(u"invocation_id"_s).toString());
    serve.terminate();
    QVERIFY(serve.waitForFinished(10000));
}

QTEST_GUILESS_MAIN(TestCapdeskctl)
#include "tst_capdeskctl.moc"
