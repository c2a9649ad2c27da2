#include "dispatch/store/sqldirectorystore.h"
#include "tests/app/ctltestsupport.h"
#include "tests/support/fixturegenerator.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CtlTestSupport;

// capdeskctl as a script or an owner's CI calls it (real process, real files, the exit
// codes of SPEC §11): the row commands on a local file, init, put, get, patch, delete,
// import, export, lint, contract, mcp-tools and flow-plan.
class TestCapdeskctlRows : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void initWithSampleHoldsTheArticleRows();
    void initSampleRefusesANonEmptyDirectory();
    void putGetPatchDeleteRoundTrip();
    void restorePutsBackASavedVersion();
    void putRefusesBadRows_data();
    void putRefusesBadRows();
    void patchRefusesUnpatchableFields();
    void readCommandsNeverCreateADirectory_data();
    void readCommandsNeverCreateADirectory();
    void missingRowsAreExitThree_data();
    void missingRowsAreExitThree();
    void importAndExportBothFormats();
    void badImportIsRefusedAndChangesNothing();
    void importRefusals_data();
    void importRefusals();
    void importTakesTheDirectoryFromAWholeDatabase();
    void putNamesTheBrokenRule();
    void defaultDirectoryLivesInXdgData();
    void flowPlanPrintsTheParsedFlow();
    void lintContractAndMcpTools();

private:
    QString db() const { return m_dir->filePath(QStringLiteral("ctl.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCapdeskctlRows::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCapdeskctlRows::initWithSampleHoldsTheArticleRows()
{
    const Run run = ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.json().value(QStringLiteral("rows")).toInt() >= 14);
    for (const char *key : {"NOW", "GROK_MODELS", "PROMPT_LAB_AGENT", "ROUTER", "BLOCK_VOICE",
                            "BLOCK_IMESSAGE", "BLOCK_EMOJI", "BLOCK_ROUTING", "BLOCK_ARA", "LAST_REPLY_OF",
                            "SEND_BY_CHANNEL", "BLOOIO_FINISH", "DIR_PATCH", "ZZ_TEST_TEMPERATURE"}) {
        const Run get = ctl({QStringLiteral("get"), QString::fromLatin1(key), QStringLiteral("--db"), db()});
        QVERIFY2(get.exitCode == 0, key);
        QCOMPARE(get.json().value(QStringLiteral("key")).toString(), QString::fromLatin1(key));
    }
    const Run router = ctl({QStringLiteral("get"), QStringLiteral("ROUTER"), QStringLiteral("--db"), db()});
    QCOMPARE(router.json().value(QStringLiteral("includes")).toString(),
             QStringLiteral("BLOCK_VOICE,BLOCK_IMESSAGE,BLOCK_EMOJI,BLOCK_ROUTING,BLOCK_ARA"));
}

void TestCapdeskctlRows::initSampleRefusesANonEmptyDirectory()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const Run again = ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()});
    QCOMPARE(again.exitCode, 4);
    QVERIFY(again.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("already holds")));
}

void TestCapdeskctlRows::putGetPatchDeleteRoundTrip()
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

    const Run patch =
        ctl({QStringLiteral("patch"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()},
            R"({"category":"weather","seq":3})");
    QCOMPARE(patch.exitCode, 0);
    const Run get =
        ctl({QStringLiteral("get"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()});
    QCOMPARE(get.exitCode, 0);
    QCOMPARE(get.json().value(QStringLiteral("category")).toString(), QStringLiteral("weather"));
    QCOMPARE(get.json().value(QStringLiteral("seq")).toInt(), 3);
    QCOMPARE(get.json().value(QStringLiteral("auth")).toString(), QString());
    QVERIFY(!get.json().value(QStringLiteral("created_at")).toString().isEmpty());

    const Run replace = ctl({QStringLiteral("put"), QStringLiteral("--db"), db()}, row);
    QCOMPARE(replace.exitCode, 0);
    QVERIFY(!replace.json().value(QStringLiteral("created")).toBool());

    const Run removed =
        ctl({QStringLiteral("delete"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()});
    QCOMPARE(removed.exitCode, 0);
    QCOMPARE(removed.json(), (QJsonObject{{QStringLiteral("ok"), true},
                                          {QStringLiteral("key"), QStringLiteral("ZZ_TEST_TEMPERATURE")},
                                          {QStringLiteral("deleted"), 1}}));
    QCOMPARE(ctl({QStringLiteral("get"), QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("--db"), db()})
                 .exitCode,
             3);
}

// `restore KEY SEQ`: the version event SEQ saved comes back, logged as a restore naming
// SEQ; a seq of another row, a delete, or no number at all is refused, writing nothing.
void TestCapdeskctlRows::restorePutsBackASavedVersion()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const auto logOf = [this](const QString &key) {
        return ctl({QStringLiteral("log"), QStringLiteral("--key"), key, QStringLiteral("--db"), db()})
            .json()
            .value(QStringLiteral("events"))
            .toArray();
    };
    const qint64 imported =
        logOf(QStringLiteral("NOW")).first().toObject().value(QStringLiteral("seq")).toInteger();
    QCOMPARE(ctl({QStringLiteral("patch"), QStringLiteral("NOW"), QStringLiteral("--db"), db()},
                 R"({"category":"clock"})")
                 .exitCode,
             0);

    const Run restored = ctl({QStringLiteral("restore"), QStringLiteral("NOW"), QString::number(imported),
                              QStringLiteral("--db"), db()});
    QCOMPARE(restored.exitCode, 0);
    QCOMPARE(restored.json().value(QStringLiteral("restores_seq")).toInteger(), imported);
    QCOMPARE(ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--db"), db()})
                 .json()
                 .value(QStringLiteral("category"))
                 .toString(),
             QStringLiteral("time"));
    const QJsonObject logged = logOf(QStringLiteral("NOW")).first().toObject();
    QCOMPARE(logged.value(QStringLiteral("action")).toString(), QStringLiteral("restore"));
    QCOMPARE(
        logged.value(QStringLiteral("detail")).toObject().value(QStringLiteral("restores_seq")).toInteger(),
        imported);
    // Again: the row already holds it, and nothing is written.
    const Run again = ctl({QStringLiteral("restore"), QStringLiteral("NOW"), QString::number(imported),
                           QStringLiteral("--db"), db()});
    QCOMPARE(again.exitCode, 0);
    QVERIFY(again.json().value(QStringLiteral("unchanged")).toBool());
    QCOMPARE(logOf(QStringLiteral("NOW")).size(), 3);

    const qint64 otherRow =
        logOf(QStringLiteral("WEATHER_NOW")).first().toObject().value(QStringLiteral("seq")).toInteger();
    const Run foreign = ctl({QStringLiteral("restore"), QStringLiteral("NOW"), QString::number(otherRow),
                             QStringLiteral("--db"), db()});
    QCOMPARE(foreign.exitCode, 3);
    QVERIFY2(foreign.err.contains("NOW has no saved version #" + QByteArray::number(otherRow)),
             foreign.err.constData());
    for (const QString &bad : {QStringLiteral("0"), QStringLiteral("-1"), QStringLiteral("x"),
                               QStringLiteral("1e3"), QStringLiteral("99999999999999999999")}) {
        const Run refused =
            ctl({QStringLiteral("restore"), QStringLiteral("NOW"), bad, QStringLiteral("--db"), db()});
        QCOMPARE(refused.exitCode, 2);
    }
    QCOMPARE(logOf(QStringLiteral("NOW")).size(), 3);
}

void TestCapdeskctlRows::putRefusesBadRows_data()
{
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("not json") << QByteArray("{\"key\":") << 2 << "stdin is not JSON: line 1";
    QTest::addRow("array") << QByteArray("[]") << 2 << "one row object";
    QTest::addRow("empty stdin") << QByteArray("  \n") << 2 << "stdin is empty";
    QTest::addRow("invalid utf-8") << QByteArray(
        "{\"key\":\"UTF_ROW\",\"type\":\"fn\",\"content\":\"a\xff\"}")
                                   << 2 << "invalid UTF-8";
    QTest::addRow("bad key") << QByteArray(R"({"key":"lower","type":"fn"})") << 4 << "must match";
    QTest::addRow("fifth type") << QByteArray(R"({"key":"GOOD_KEY","type":"cron"})") << 4
                                << "not one of fn, http, agent, flow";
    QTest::addRow("unknown field") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","colour":"red"})") << 4
                                   << "unknown field 'colour'";
    QTest::addRow("bad schema") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","input_schema":"{"})") << 4
                                << "input_schema is not JSON";
    QTest::addRow("examples object") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","examples":"{}"})") << 4
                                     << "JSON array";
    QTest::addRow("enabled 2") << QByteArray(R"({"key":"GOOD_KEY","type":"fn","enabled":2})") << 4
                               << "must be 0 or 1";
}

void TestCapdeskctlRows::putRefusesBadRows()
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

void TestCapdeskctlRows::patchRefusesUnpatchableFields()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const Run before = ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--db"), db()});
    const Run run = ctl({QStringLiteral("patch"), QStringLiteral("NOW"), QStringLiteral("--db"), db()},
                        R"({"runner":"edge","sensitive":1})");
    QCOMPARE(run.exitCode, 4);
    QCOMPARE(run.json().value(QStringLiteral("error")).toString(), QStringLiteral("no recognized fields"));
    QCOMPARE(ctl({QStringLiteral("get"), QStringLiteral("NOW"), QStringLiteral("--db"), db()}).out,
             before.out);

    const Run mixed = ctl({QStringLiteral("patch"), QStringLiteral("NOW"), QStringLiteral("--db"), db()},
                          R"({"runner":"edge","category":"clock"})");
    QCOMPARE(mixed.exitCode, 0);
    QCOMPARE(mixed.json().value(QStringLiteral("ignored")).toArray(), QJsonArray{QStringLiteral("runner")});
    QVERIFY(mixed.err.contains("not patchable, ignored: runner"));
}

void TestCapdeskctlRows::readCommandsNeverCreateADirectory_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addRow("get") << QStringList{QStringLiteral("get"), QStringLiteral("NOW")};
    QTest::addRow("export") << QStringList{QStringLiteral("export")};
    QTest::addRow("delete") << QStringList{QStringLiteral("delete"), QStringLiteral("NOW")};
    QTest::addRow("put") << QStringList{QStringLiteral("put")};
}

void TestCapdeskctlRows::readCommandsNeverCreateADirectory()
{
    QFETCH(QStringList, arguments);
    const QString missing = m_dir->filePath(QStringLiteral("typo/none.db"));
    const Run run =
        ctl(arguments + QStringList{QStringLiteral("--db"), missing}, R"({"key":"NOW","type":"fn"})");
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("capdeskctl init")));
    QVERIFY(!QFileInfo::exists(missing));
    QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("typo"))));
}

void TestCapdeskctlRows::missingRowsAreExitThree_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addRow("get") << QStringList{QStringLiteral("get"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("delete") << QStringList{QStringLiteral("delete"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("patch") << QStringList{QStringLiteral("patch"), QStringLiteral("NO_SUCH_ROW")};
    QTest::addRow("import of a missing file")
        << QStringList{QStringLiteral("import"), QStringLiteral("/nonexistent/rows.json")};
}

void TestCapdeskctlRows::missingRowsAreExitThree()
{
    QFETCH(QStringList, arguments);
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--db"), db()}).exitCode, 0);
    const Run run = ctl(arguments + QStringList{QStringLiteral("--db"), db()}, R"({"content":"x"})");
    QCOMPARE(run.exitCode, 3);
}

void TestCapdeskctlRows::importAndExportBothFormats()
{
    const QString dump = m_dir->filePath(QStringLiteral("prod.sql"));
    QVERIFY(FixtureGenerator::makeSqlDump(dump, 891).isEmpty());
    // Generated dumps hold legacy rows, as production's do.
    const Run imported = ctl({QStringLiteral("import"), dump, QStringLiteral("--allow-noncompliant"),
                              QStringLiteral("--db"), db()});
    QVERIFY2(imported.exitCode == 0, imported.out.constData());
    QCOMPARE(imported.json().value(QStringLiteral("imported")).toInt(), 891);

    const QString json = m_dir->filePath(QStringLiteral("rows.json"));
    const QString sql = m_dir->filePath(QStringLiteral("rows.sql"));
    QCOMPARE(
        ctl({QStringLiteral("export"), QStringLiteral("--out"), json, QStringLiteral("--db"), db()}).exitCode,
        0);
    QCOMPARE(ctl({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sql"),
                  QStringLiteral("--out"), sql, QStringLiteral("--db"), db()})
                 .exitCode,
             0);

    for (const QString &file : {json, sql}) {
        const QString copy = m_dir->filePath(QFileInfo(file).suffix() + QStringLiteral(".db"));
        QCOMPARE(ctl({QStringLiteral("import"), file, QStringLiteral("--allow-noncompliant"),
                      QStringLiteral("--db"), copy})
                     .exitCode,
                 0);
        auto original = SqlDirectoryStore::open(db());
        auto roundTrip = SqlDirectoryStore::open(copy);
        QVERIFY(original.ok() && roundTrip.ok());
        QCOMPARE(roundTrip.value()->allRows().value(), original.value()->allRows().value());
    }
}

void TestCapdeskctlRows::badImportIsRefusedAndChangesNothing()
{
    QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--sample"), QStringLiteral("--db"), db()}).exitCode,
             0);
    const QByteArray before = ctl({QStringLiteral("export"), QStringLiteral("--db"), db()}).out;
    const QString bad = m_dir->filePath(QStringLiteral("bad.sql"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("INSERT INTO directory (key, type, updated_at) VALUES ('FRESH_ROW', 'fn', "
               "'2026-07-26T04:36:19.832Z');\n"
               "INSERT INTO directory (key, type, updated_at) VALUES ('CRON_ROW', 'cron', "
               "'2026-07-26T04:36:19.832Z');\n");
    file.close();
    const Run run = ctl({QStringLiteral("import"), bad, QStringLiteral("--db"), db()});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("line 2")),
             run.out.constData());
    QCOMPARE(ctl({QStringLiteral("export"), QStringLiteral("--db"), db()}).out, before);
}

void TestCapdeskctlRows::importRefusals_data()
{
    QTest::addColumn<QByteArray>("rows"); // a JSON array's rows after a compliant one
    QTest::addColumn<QString>("option"); // the option that lets them in, or "" for none
    QTest::addColumn<QStringList>("codes"); // named in the refusal and its findings
    QTest::addColumn<QString>("listed"); // what the accepted import lists ("noncompliant", "restamped")

    const QByteArray docs =
        R"("# WHAT: Upper-cases text.\n# WHEN_TO_USE: capitals.\n# ARGS: $1=text\n# EX: [KEY]a[/KEY]")";
    auto row = [&](const char *key, const QByteArray &extra) {
        return QByteArray(R"({"key":")") + key + R"(","type":"fn","target":"upper","content":)"
               + QByteArray(docs).replace("KEY", key) + extra + "}";
    };
    QTest::addRow("no doc lines") << QByteArray(R"({"key":"BARE_ROW","type":"fn","target":"upper"})")
                                  << QStringLiteral("--allow-noncompliant")
                                  << QStringList{QStringLiteral("H010"), QStringLiteral("H013")}
                                  << QStringLiteral("noncompliant");
    QTest::addRow("include cycle") << row("CYCLE_A", R"(,"includes":"CYCLE_B")") + ","
                                          + row("CYCLE_B", R"(,"includes":"CYCLE_A")")
                                   << QStringLiteral("--allow-noncompliant")
                                   << QStringList{QStringLiteral("H061")} << QStringLiteral("noncompliant");
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

void TestCapdeskctlRows::importRefusals()
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
    out.write(
        R"([{"key":"GOOD_ROW","type":"fn","target":"upper","content":"# WHAT: Upper-cases text.\n# WHEN_TO_USE: capitals.\n# ARGS: $1=text\n# EX: [GOOD_ROW]a[/GOOD_ROW]"},)"
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

void TestCapdeskctlRows::importTakesTheDirectoryFromAWholeDatabase()
{
    const Run run =
        ctl({u"import"_s, QStringLiteral(CAPDESK_TESTDATA_DIR "/d1_whole_database.sql"), u"--db"_s, db()});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QCOMPARE(run.json().value(u"imported"_s).toInt(), 2);
    const QJsonArray skipped = run.json().value(u"skipped"_s).toArray();
    QVERIFY2(skipped.contains(u"table 'd1_migrations' (3 INSERTs)"_s), run.out.constData());
    QVERIFY2(skipped.contains(u"table 'receipts' (2 INSERTs)"_s), run.out.constData());
    QCOMPARE(ctl({u"get"_s, u"SHOUT"_s, u"--db"_s, db()}).exitCode, 0);
}

void TestCapdeskctlRows::putNamesTheBrokenRule()
{
    QCOMPARE(ctl({u"init"_s, u"--db"_s, db()}).exitCode, 0);
    const Run run = ctl({u"put"_s, u"--db"_s, db()}, R"({"key":"lower_key","type":"fn","target":"upper"})");
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.json().value(u"error"_s).toString().contains(u"H001 key_format"_s), run.out.constData());
}

void TestCapdeskctlRows::defaultDirectoryLivesInXdgData()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_dir->filePath(QStringLiteral("xdg")));
    const ProcessRun::Result result =
        ProcessRun::run(QStringLiteral(CAPDESKCTL_PATH), {QStringLiteral("init")}, {}, environment);
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, 0);
    QVERIFY(QFileInfo::exists(m_dir->filePath(QStringLiteral("xdg/capdesk/directory.db"))));
}

void TestCapdeskctlRows::flowPlanPrintsTheParsedFlow()
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

void TestCapdeskctlRows::lintContractAndMcpTools()
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

QTEST_GUILESS_MAIN(TestCapdeskctlRows)
#include "tst_capdeskctl_rows.moc"
