#include "dispatch/core/isotime.h"
#include "dispatch/row/rowvalidator.h"
#include "dispatch/store/directoryexporter.h"
#include "dispatch/store/directoryimporter.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/sqldumpreader.h"
#include "tests/support/fixturegenerator.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

namespace {

Row seedRow(const QString &key, const QString &type)
{
    Row row;
    row.key = key;
    row.type = type;
    row.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    row.createdAt = row.updatedAt;
    return row;
}

// An INSERT in the generator's shape for the few columns a case needs.
QByteArray insert(const char *key, const char *type)
{
    return QByteArray("INSERT INTO directory (key,type,updated_at) VALUES('") + key + "','" + type
           + "','2026-07-26T04:36:19.832Z');\n";
}

// Rows of old dumps break hygiene rules; these tests are about everything else.
ImportOptions legacy()
{
    ImportOptions options;
    options.allowNoncompliant = true;
    return options;
}

// A row that meets every rule, as JSON, with `field` set to `value` (a JSON literal).
QByteArray compliantJson(const char *key, const char *field = nullptr, const QByteArray &value = {})
{
    QByteArray row =
        QByteArray("{\"key\": \"") + key
        + "\", \"type\": \"fn\", \"target\": \"upper\", \"updated_at\": \"2026-07-26T04:36:19.832Z\", "
          "\"content\": \"# WHAT: Upper-cases text.\\n# WHEN_TO_USE: capitals are needed.\\n"
          "# ARGS: $1=text\\n# EX: ["
        + key + "]hello[/" + key + "]\\n# OUTPUT: the text in capitals\"";
    if (field)
        row += QByteArray(", \"") + field + "\": " + value;
    return row + "}";
}

QByteArray jsonRow(const char *key, const char *type)
{
    return QByteArray("  {\"key\": \"") + key + "\", \"type\": \"" + type
           + "\", \"updated_at\": \"2026-07-26T04:36:19.832Z\"}";
}

} // namespace

class TestDirectoryImporter : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void refuses_data();
    void refuses();
    void namesEveryRefusedRow();
    void countsTheRefusedRowsPastTheListed();
    void listsNoncompliantRowsUpToTheCap();
    void importsGeneratedDump();
    void importsJsonArray();
    void importsAfterByteOrderMark();
    void refusesMissingFile();
    void refusesBadTimestamps_data();
    void refusesBadTimestamps();
    void restampReplacesOnlyBadTimestamps();
    void refusesNoncompliantRows_data();
    void refusesNoncompliantRows();
    void takesTheDirectoryFromAWholeDatabaseDump();
    void exportImportRoundTrip_data();
    void exportImportRoundTrip();

private:
    std::shared_ptr<SqlDirectoryStore> openStore(const QString &name);
    QString generatedDump();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
};

std::shared_ptr<SqlDirectoryStore> TestDirectoryImporter::openStore(const QString &name)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(m_dir->filePath(name));
    if (!store.ok()) {
        qWarning("%s", qPrintable(store.error().message));
        return nullptr;
    }
    return store.value();
}

QString TestDirectoryImporter::generatedDump()
{
    const QString path = m_dir->filePath(QStringLiteral("generated.sql"));
    const QString failure = FixtureGenerator::makeSqlDump(path, 891);
    if (!failure.isEmpty())
        qWarning("%s", qPrintable(failure));
    return failure.isEmpty() ? path : QString();
}

void TestDirectoryImporter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = openStore(QStringLiteral("directory.db"));
    QVERIFY(m_store);
}

void TestDirectoryImporter::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestDirectoryImporter::refuses_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");

    // The store holds NOW and SEEDED before every case.
    QTest::addRow("SQL: truncated dump")
        << insert("A", "fn") + insert("B", "fn").left(50)
        << QStringLiteral("line 2: statement is not terminated by ';' (the dump looks truncated)");
    QTest::addRow("SQL: cut off inside a string")
        << insert("A", "fn") + "INSERT INTO directory (key,type,content) VALUES('B','fn','half\nof it"
        << QStringLiteral("line 2: statement is not terminated by ';' (the dump looks truncated)");
    QTest::addRow("SQL: another table") << insert("A", "fn") + "INSERT INTO receipts VALUES (1);\n"
                                        << QStringLiteral("line 2: no such table: receipts");
    QTest::addRow("SQL: invalid UTF-8") << insert("A", "fn") + insert("B", "fn") + insert("caf\xc3", "fn")
                                        << QStringLiteral("line 3: invalid UTF-8");
    QTest::addRow("SQL: overlong UTF-8")
        << insert("A", "fn") + insert("\xc0\xaf", "fn") << QStringLiteral("line 2: invalid UTF-8");
    QTest::addRow("SQL: UTF-8 surrogate")
        << insert("\xed\xa0\x80", "fn") << QStringLiteral("line 1: invalid UTF-8");
    QTest::addRow("SQL: UTF-8 past U+10FFFF")
        << insert("\xf4\x90\x80\x80", "fn") << QStringLiteral("line 1: invalid UTF-8");
    QTest::addRow("SQL: UTF-8 cut at the end")
        << insert("A", "fn") + "-- \xe2\x80" << QStringLiteral("line 2: invalid UTF-8");
    QTest::addRow("SQL: duplicate key in the file")
        << insert("A", "fn") + insert("B", "http") + insert("A", "agent")
        << QStringLiteral("line 3: key 'A' appears twice in the file (lines 1 and 3)");
    QTest::addRow("SQL: key already in the store")
        << insert("A", "fn") + insert("NOW", "fn")
        << QStringLiteral("line 2: key 'NOW' already exists in the directory");
    QTest::addRow("SQL: type outside the four")
        << insert("A", "fn") + insert("B", "lambda")
        << QStringLiteral("line 2: row 2 ('B'): V001 type_known (type): type 'lambda' is not one of fn, "
                          "http, agent, flow");
    QTest::addRow("SQL: blob") << QByteArray(
        "INSERT INTO directory (key,type,content) VALUES('A','fn',X'00');")
                               << QStringLiteral("line 1: column 'content': holds a blob");

    QTest::addRow("JSON: malformed") << "[\n" + jsonRow("A", "fn") + ",\n" + jsonRow("B", "fn")
                                            + "\n  {\"key\": \"C\"}\n]"
                                     << QStringLiteral("line 4: not valid JSON");
    QTest::addRow("JSON: invalid UTF-8") << "[\n" + jsonRow("A", "fn") + ",\n" + jsonRow("\xff", "fn") + "\n]"
                                         << QStringLiteral("line 3: invalid UTF-8");
    QTest::addRow("JSON: duplicate key in the file")
        << "[\n" + jsonRow("A", "fn") + ",\n" + jsonRow("B", "fn") + ",\n" + jsonRow("A", "flow") + "\n]"
        << QStringLiteral("line 4: key 'A' appears twice in the file (lines 2 and 4)");
    QTest::addRow("JSON: key already in the store")
        << "[\n" + jsonRow("A", "fn") + ",\n" + jsonRow("SEEDED", "fn") + "\n]"
        << QStringLiteral("line 3: key 'SEEDED' already exists in the directory");
    QTest::addRow("JSON: type outside the four")
        << "[\n" + jsonRow("A", "soap") + "\n]"
        << QStringLiteral("line 2: row 1 ('A'): V001 type_known (type): type 'soap' is not one of fn, http, "
                          "agent, flow");
    QTest::addRow("JSON: row without a key")
        << QByteArray("[\n  {\"type\": \"fn\"}\n]") << QStringLiteral("line 2: row 1: V005 key_text (key)");
    QTest::addRow("JSON: unknown field")
        << "[\n" + jsonRow("A", "fn") + ",\n  {\"key\": \"B\", \"colour\": 1}\n]"
        << QStringLiteral("line 3: row 2 ('B'): unknown field 'colour'");

    // Validity: refused even for a legacy import, by rule code.
    QTest::addRow("runner 'evil'") << "[\n" + compliantJson("RUN_EVIL", "runner", "\"evil\"") + "\n]"
                                   << QStringLiteral(
                                          "line 2: row 1 ('RUN_EVIL'): V002 runner_known (runner)");
    QTest::addRow("updated_at 'x'") << "[\n" + compliantJson("STAMP_X", "updated_at", "\"x\"") + "\n]"
                                    << QStringLiteral(
                                           "line 2: row 1 ('STAMP_X'): V003 timestamp_form (updated_at)");
    QTest::addRow("50 MB content")
        << "[\n{\"key\": \"HUGE_ROW\", \"type\": \"fn\", \"content\": \"" + QByteArray(50 * 1024 * 1024, 'x')
               + "\"}\n]"
        << QStringLiteral("line 2: row 1 ('HUGE_ROW'): V004 field_size (content): content is 52428800 bytes, "
                          "over its limit of 524288");
    QTest::addRow("SQL: 1 MiB content")
        << "INSERT INTO directory (key,type,updated_at,content) "
           "VALUES('BIG_ROW','fn','2026-07-26T04:36:19.832Z','"
               + QByteArray(1024 * 1024, 'x') + "');\n"
        << QStringLiteral("line 1: row 1 ('BIG_ROW'): V004 field_size (content): content is 1048576 bytes");
    QTest::addRow("SQL: a control character in the key")
        << QByteArray("INSERT INTO directory (key,type) VALUES('BAD\nKEY','fn');\n")
        << QStringLiteral("line 1: row 1: V005 key_text (key)");
}

void TestDirectoryImporter::refuses()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);

    QVERIFY(!m_store
                 ->importRows({seedRow(QStringLiteral("NOW"), QStringLiteral("fn")),
                               seedRow(QStringLiteral("SEEDED"), QStringLiteral("http"))})
                 .isError());
    const StoreResult<QList<Row>> before = m_store->allRows();
    QVERIFY(before.ok());
    QCOMPARE(before.value().size(), 2);

    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, bytes, legacy());
    QVERIFY(!imported.ok());
    QCOMPARE(imported.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(imported.error().message.startsWith(message), qPrintable(imported.error().message));

    const StoreResult<QList<Row>> after = m_store->allRows();
    QVERIFY(after.ok());
    QCOMPARE(after.value().size(), before.value().size());
    QVERIFY(after.value() == before.value());
}

// Item 13 of issue 13: one pass over a dump names every row to fix, not only the first.
void TestDirectoryImporter::namesEveryRefusedRow()
{
    QVERIFY(!m_store->importRows({seedRow(QStringLiteral("SEEDED"), QStringLiteral("fn"))}).isError());
    const QByteArray json = "[\n" + compliantJson("GOOD_ROW") + ",\n" + jsonRow("BAD_TYPE", "soap") + ",\n"
                            + compliantJson("RUN_EVIL", "runner", "\"evil\"") + ",\n"
                            + compliantJson("STAMP_X", "updated_at", "\"x\"") + ",\n"
                            + "  {\"key\": \"BAD\\nKEY\", \"type\": \"fn\"},\n" + jsonRow("GOOD_ROW", "fn")
                            + ",\n" + jsonRow("SEEDED", "fn") + "\n]";
    for (const ImportOptions &options : {ImportOptions(), legacy()}) {
        const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, options);
        QVERIFY(!imported.ok());
        QCOMPARE(imported.error().kind, StoreError::Kind::Invalid);
        const QStringList lines = imported.error().message.split(u'\n');
        const QStringList expected{
            QStringLiteral("line 3: row 2 ('BAD_TYPE'): V001 type_known (type)"),
            QStringLiteral("line 4: row 3 ('RUN_EVIL'): V002 runner_known (runner)"),
            QStringLiteral("line 5: row 4 ('STAMP_X'): V003 timestamp_form (updated_at)"),
            QStringLiteral("line 6: row 5: V005 key_text (key)"),
            QStringLiteral("line 7: key 'GOOD_ROW' appears twice in the file (lines 2 and 7)"),
            QStringLiteral("line 8: key 'SEEDED' already exists in the directory"),
            QStringLiteral("6 of the 7 rows are refused, so nothing was imported"),
        };
        QCOMPARE(lines.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QVERIFY2(lines.at(i).startsWith(expected.at(i)), qPrintable(lines.at(i)));
        QStringList codes;
        for (const QJsonValue &finding : imported.error().details) {
            const QJsonObject found = finding.toObject();
            codes.append(QStringLiteral("%1 %2 row %3 line %4")
                             .arg(found.value(QStringLiteral("code")).toString(),
                                  found.value(QStringLiteral("key")).toString())
                             .arg(found.value(QStringLiteral("row")).toInt())
                             .arg(found.value(QStringLiteral("line")).toInt()));
        }
        // A key that breaks a rule itself is named by its position only.
        QCOMPARE(codes, (QStringList{QStringLiteral("V001 BAD_TYPE row 2 line 3"),
                                     QStringLiteral("V002 RUN_EVIL row 3 line 4"),
                                     QStringLiteral("V003 STAMP_X row 4 line 5"),
                                     QStringLiteral("V005  row 5 line 6")}));
        QCOMPARE(m_store->allRows().value().size(), 1); // all or nothing
    }
}

void TestDirectoryImporter::countsTheRefusedRowsPastTheListed()
{
    QByteArray json = "[\n" + compliantJson("GOOD_ROW");
    const int refused = DirectoryImporter::listedRows + 7;
    for (int i = 0; i < refused; ++i)
        json += ",\n" + jsonRow(("BAD_" + QByteArray::number(i)).constData(), "soap");
    json += "\n]";
    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, legacy());
    QVERIFY(!imported.ok());
    const QStringList lines = imported.error().message.split(u'\n');
    QCOMPARE(lines.size(), DirectoryImporter::listedRows + 2);
    QVERIFY2(lines.at(0).startsWith(QStringLiteral("line 3: row 2 ('BAD_0'): V001")),
             qPrintable(lines.at(0)));
    QCOMPARE(lines.at(lines.size() - 2), QStringLiteral("… and 7 more rows"));
    QCOMPARE(lines.last(), QStringLiteral("%1 of the %2 rows are refused, so nothing was imported")
                               .arg(refused)
                               .arg(refused + 1));
    QCOMPARE(imported.error().details.size(), DirectoryImporter::listedRows);
    QVERIFY(m_store->allRows().value().isEmpty());
}

void TestDirectoryImporter::listsNoncompliantRowsUpToTheCap()
{
    const int noncompliant = DirectoryImporter::listedRows + 5;
    QByteArray json = "[\n" + compliantJson("GOOD_ROW");
    for (int i = 0; i < noncompliant; ++i)
        json += ",\n{\"key\": \"UNDOCUMENTED_" + QByteArray::number(i)
                + "\", \"type\": \"fn\", \"target\": \"upper\"}";
    json += "\n]";

    const StoreResult<ImportReport> refusedImport = DirectoryImporter::importBytes(*m_store, json);
    QVERIFY(!refusedImport.ok());
    QVERIFY(DirectoryImporter::isHygieneRefusal(refusedImport.error()));
    QVERIFY2(refusedImport.error().message.contains(QStringLiteral("… and 5 more rows")),
             qPrintable(refusedImport.error().message));
    QSet<QString> refusedKeys;
    for (const QJsonValue &finding : refusedImport.error().details)
        refusedKeys.insert(finding.toObject().value(QStringLiteral("key")).toString());
    QCOMPARE(refusedKeys.size(), DirectoryImporter::listedRows);
    QVERIFY(m_store->allRows().value().isEmpty());

    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, legacy());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().imported, noncompliant + 1);
    const QJsonObject report = imported.value().toJson();
    QCOMPARE(report.value(QStringLiteral("noncompliant_rows")).toInt(), noncompliant);
    QCOMPARE(report.value(QStringLiteral("noncompliant_unlisted")).toInt(), 5);
    QSet<QString> listedKeys;
    for (const QJsonValue &finding : report.value(QStringLiteral("noncompliant")).toArray()) {
        const QJsonObject found = finding.toObject();
        QVERIFY(!found.value(QStringLiteral("code")).toString().isEmpty());
        listedKeys.insert(found.value(QStringLiteral("key")).toString());
    }
    QCOMPARE(listedKeys.size(), DirectoryImporter::listedRows);
    QVERIFY(!listedKeys.contains(QStringLiteral("GOOD_ROW")));
}

void TestDirectoryImporter::importsGeneratedDump()
{
    const QString path = generatedDump();
    QVERIFY(!path.isEmpty());

    const StoreResult<ImportReport> imported = DirectoryImporter::importFile(*m_store, path, legacy());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().imported, 891);

    // What the store holds is what the dump says, row by row, timestamps included.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    StoreResult<SqlDump> dump = SqlDumpReader::read(file);
    QVERIFY(dump.ok());
    StoreResult<QList<Row>> expected = dump.value().rows;
    std::sort(expected.value().begin(), expected.value().end(),
              [](const Row &a, const Row &b) { return a.key < b.key; });
    const StoreResult<QList<Row>> stored = m_store->allRows();
    QVERIFY(stored.ok());
    QCOMPARE(stored.value().size(), 891);
    for (qsizetype i = 0; i < stored.value().size(); ++i)
        QVERIFY2(stored.value().at(i) == expected.value().at(i), qPrintable(expected.value().at(i).key));

    const StoreResult<Row> temperature = m_store->row(QStringLiteral("ZZ_TEST_TEMPERATURE"));
    QVERIFY(temperature.ok());
    QCOMPARE(temperature.value().type, QStringLiteral("http"));
    QCOMPARE(temperature.value().examples, QStringLiteral("[\"37.77|-122.42\"]"));
    QVERIFY(!temperature.value().auth.isNull());
    const StoreResult<Row> now = m_store->row(QStringLiteral("NOW"));
    QVERIFY(now.ok());
    QVERIFY(now.value().auth.isNull());
    QVERIFY(now.value().content.contains(QString::fromUtf8("\xe2\x80\x94")));

    // A second import of the same dump refuses at its first row, which is now taken.
    const StoreResult<ImportReport> again = DirectoryImporter::importFile(*m_store, path, legacy());
    QVERIFY(!again.ok());
    QVERIFY2(again.error().message.startsWith(
                 QStringLiteral("line 13: key 'NOW' already exists in the directory")),
             qPrintable(again.error().message));
    QCOMPARE(m_store->allRows().value().size(), 891);
}

void TestDirectoryImporter::importsJsonArray()
{
    const QByteArray json =
        "[\n" + jsonRow("A", "fn") + ",\n"
        + "  {\"key\": \"B\", \"type\": \"http\", \"target\": \"GET https://x.example/$1\", \"auth\": \"\",\n"
          "   \"seq\": 4, \"enabled\": 0, \"content\": \"# WHAT: x\\nbody\", \"created_at\": null,\n"
          "   \"updated_at\": \"2026-07-26T04:36:19.832Z\"},\n"
        + jsonRow("C", "flow") + "\n]\n";
    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, legacy());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().imported, 3);
    QCOMPARE(m_store->allRows().value().size(), 3);

    const StoreResult<Row> b = m_store->row(QStringLiteral("B"));
    QVERIFY(b.ok());
    QCOMPARE(b.value().target, QStringLiteral("GET https://x.example/$1"));
    QVERIFY(!b.value().auth.isNull());
    QVERIFY(b.value().auth.isEmpty());
    QCOMPARE(b.value().seq, std::optional<qint64>(4));
    QVERIFY(!b.value().enabled);
    QCOMPARE(b.value().content, QStringLiteral("# WHAT: x\nbody"));
    QVERIFY(b.value().createdAt.isNull());
    QCOMPARE(b.value().updatedAt, QStringLiteral("2026-07-26T04:36:19.832Z"));
}

void TestDirectoryImporter::importsAfterByteOrderMark()
{
    const StoreResult<ImportReport> json =
        DirectoryImporter::importBytes(*m_store, "\xef\xbb\xbf[\n" + jsonRow("A", "fn") + "\n]", legacy());
    QVERIFY2(json.ok(), qPrintable(json.error().message));
    const StoreResult<ImportReport> sql =
        DirectoryImporter::importBytes(*m_store, "\xef\xbb\xbf" + insert("B", "fn"), legacy());
    QVERIFY2(sql.ok(), qPrintable(sql.error().message));
    QCOMPARE(m_store->allRows().value().size(), 2);
}

void TestDirectoryImporter::refusesMissingFile()
{
    const StoreResult<ImportReport> imported =
        DirectoryImporter::importFile(*m_store, m_dir->filePath(QStringLiteral("absent.sql")));
    QVERIFY(!imported.ok());
    QCOMPARE(imported.error().kind, StoreError::Kind::Io);
    QVERIFY(imported.error().message.contains(QStringLiteral("absent.sql")));
}

void TestDirectoryImporter::refusesBadTimestamps_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("stamp"); // as a JSON string's contents

    const QList<QPair<const char *, QByteArray>> forms{
        {"not a time", "x"},
        {"CR LF and a header", "2026-07-26T04:36:19.832Z\\r\\nSet-Cookie: session=evil"},
        {"trailing newline", "2026-07-26T04:36:19.832Z\\n"},
        {"no milliseconds", "2026-07-26T04:36:19Z"},
        {"an offset instead of Z", "2026-07-26T04:36:19.832+02:00"},
        {"no zone", "2026-07-26T04:36:19.832"},
        {"space for T (SQLite's datetime())", "2026-07-26 04:36:19.832Z"},
        {"lower-case z", "2026-07-26T04:36:19.832z"},
        {"microseconds", "2026-07-26T04:36:19.832123Z"},
        {"month 13", "2026-13-01T00:00:00.000Z"},
        {"30 February", "2026-02-30T00:00:00.000Z"},
        {"hour 24", "2026-07-26T24:00:00.000Z"},
        {"leap second", "2026-06-30T23:59:60.000Z"},
        {"other digits", "\xd9\xa2"
                         "026-07-26T04:36:19.832Z"},
        {"a number", "1753504579832"},
    };
    for (const char *field : {"updated_at", "created_at"}) {
        for (const auto &form : forms)
            QTest::addRow("%s: %s", field, form.first) << QByteArray(field) << form.second;
    }
}

void TestDirectoryImporter::refusesBadTimestamps()
{
    QFETCH(QByteArray, field);
    QFETCH(QByteArray, stamp);

    const QByteArray json = "[\n" + compliantJson("GOOD_ROW") + ",\n"
                            + compliantJson("STAMPED_ROW", field.constData(), '"' + stamp + '"') + "\n]";
    // Legacy rows may break hygiene rules, never this one.
    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, legacy());
    QVERIFY(!imported.ok());
    QCOMPARE(imported.error().kind, StoreError::Kind::Invalid);
    const QString expected = QStringLiteral("line 3: row 2 ('STAMPED_ROW'): V003 timestamp_form (%1)")
                                 .arg(QString::fromLatin1(field));
    QVERIFY2(imported.error().message.startsWith(expected), qPrintable(imported.error().message));
    QVERIFY(!imported.error().message.contains(u'\r'));
    QCOMPARE(imported.error().details.first().toObject().value(QStringLiteral("code")).toString(),
             QStringLiteral("V003"));
    QVERIFY(m_store->allRows().value().isEmpty());
}

void TestDirectoryImporter::restampReplacesOnlyBadTimestamps()
{
    const QByteArray json = "[\n" + compliantJson("KEPT_ROW", "created_at", "\"2026-01-02T03:04:05.006Z\"")
                            + ",\n" + compliantJson("BAD_UPDATED", "updated_at", "\"x\\r\\nSet-Cookie: y\"")
                            + ",\n" + compliantJson("BAD_CREATED", "created_at", "\"yesterday\"") + "\n]";
    ImportOptions options;
    options.restamp = true;
    const QString before = IsoTime::nowUtc();
    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, options);
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().restamped, (QStringList{QStringLiteral("BAD_UPDATED updated_at"),
                                                      QStringLiteral("BAD_CREATED created_at")}));

    const Row kept = m_store->row(QStringLiteral("KEPT_ROW")).value();
    QCOMPARE(kept.updatedAt, QStringLiteral("2026-07-26T04:36:19.832Z"));
    QCOMPARE(kept.createdAt, QStringLiteral("2026-01-02T03:04:05.006Z"));
    const Row updated = m_store->row(QStringLiteral("BAD_UPDATED")).value();
    QVERIFY(RowValidator::isStoreTimestamp(updated.updatedAt));
    QVERIFY(updated.updatedAt >= before);
    QVERIFY(updated.createdAt.isNull());
    const Row created = m_store->row(QStringLiteral("BAD_CREATED")).value();
    QCOMPARE(created.updatedAt, QStringLiteral("2026-07-26T04:36:19.832Z"));
    QCOMPARE(created.createdAt, updated.updatedAt); // one instant for the whole import
}

void TestDirectoryImporter::refusesNoncompliantRows_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("codes");

    const QByteArray good = compliantJson("GOOD_ROW");
    QTest::addRow("no doc lines") << "[\n" + good
                                         + ",\n{\"key\": \"UNDOCUMENTED\", \"type\": \"fn\", "
                                           "\"target\": \"upper\"}\n]"
                                  << QStringLiteral("UNDOCUMENTED")
                                  << QStringList{
                                         QStringLiteral("H010 doc_what"), QStringLiteral("H011 doc_when"),
                                         QStringLiteral("H012 doc_args"), QStringLiteral("H013 doc_example")};
    QTest::addRow("include cycle") << "[\n" + good + ",\n" + compliantJson("LOOP_A", "includes", "\"LOOP_B\"")
                                          + ",\n" + compliantJson("LOOP_B", "includes", "\"LOOP_A\"") + "\n]"
                                   << QStringLiteral("LOOP_A")
                                   << QStringList{QStringLiteral("H061 includes_cycle")};
    const QByteArray flow =
        "{\"key\": \"SELF_CALL\", \"type\": \"flow\", \"updated_at\": \"2026-07-26T04:36:19.832Z\", "
        "\"content\": \"# WHAT: Calls itself.\\n# WHEN_TO_USE: never.\\n# ARGS: $1=x\\n"
        "# EX: [SELF_CALL]x[/SELF_CALL]\\nGOOD_ROW: $1 > SELF_CALL: $PREV\"}";
    QTest::addRow("self-calling flow") << "[\n" + good + ",\n" + flow + "\n]" << QStringLiteral("SELF_CALL")
                                       << QStringList{QStringLiteral("H025 flow_cycle")};
    QTest::addRow("lower-case key (H001)")
        << "[\n" + good + ",\n" + compliantJson("lower_key") + "\n]" << QStringLiteral("lower_key")
        << QStringList{QStringLiteral("H001 key_format")};
}

void TestDirectoryImporter::refusesNoncompliantRows()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QFETCH(QStringList, codes);

    const StoreResult<ImportReport> refused = DirectoryImporter::importBytes(*m_store, json);
    QVERIFY(!refused.ok());
    QVERIFY(DirectoryImporter::isHygieneRefusal(refused.error()));
    for (const QString &code : codes)
        QVERIFY2(refused.error().message.contains(key + QStringLiteral(": "))
                     && refused.error().message.contains(code),
                 qPrintable(refused.error().message));
    QVERIFY2(!refused.error().message.contains(QStringLiteral("GOOD_ROW")),
             qPrintable(refused.error().message));
    QVERIFY(refused.error().message.contains(QStringLiteral("--allow-noncompliant")));
    QVERIFY(m_store->allRows().value().isEmpty()); // all or nothing

    const StoreResult<ImportReport> imported = DirectoryImporter::importBytes(*m_store, json, legacy());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QStringList listed;
    for (const LintFinding &finding : imported.value().noncompliant) {
        if (finding.key == key)
            listed.append(finding.code + u' ' + finding.name);
        QVERIFY(finding.key != QStringLiteral("GOOD_ROW"));
    }
    for (const QString &code : codes)
        QVERIFY2(listed.contains(code), qPrintable(listed.join(u',')));
    QVERIFY(m_store->row(key).ok());
}

void TestDirectoryImporter::takesTheDirectoryFromAWholeDatabaseDump()
{
    const StoreResult<ImportReport> imported = DirectoryImporter::importFile(
        *m_store, QStringLiteral(CAPDESK_TESTDATA_DIR "/d1_whole_database.sql"));
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().imported, 2);
    QCOMPARE(imported.value().skipped.size(), 4);
    QVERIFY(imported.value().skipped.contains(QStringLiteral("table 'd1_migrations' (3 INSERTs)")));
    QVERIFY(imported.value().noncompliant.isEmpty());
    QCOMPARE(m_store->allRows().value().size(), 2);
    QCOMPARE(m_store->row(QStringLiteral("SHOUT")).value().updatedAt,
             QStringLiteral("2026-07-26T04:36:19.832Z"));
}

void TestDirectoryImporter::exportImportRoundTrip_data()
{
    QTest::addColumn<DirectoryExporter::Format>("format");

    QTest::addRow("JSON") << DirectoryExporter::Format::Json;
    QTest::addRow("SQL") << DirectoryExporter::Format::Sql;
}

void TestDirectoryImporter::exportImportRoundTrip()
{
    QFETCH(DirectoryExporter::Format, format);

    const QString path = generatedDump();
    QVERIFY(!path.isEmpty());
    const StoreResult<ImportReport> filled = DirectoryImporter::importFile(*m_store, path, legacy());
    QVERIFY2(filled.ok(), qPrintable(filled.error().message));
    // Rows the generator never writes: an empty string beside NULLs, text needing quotes.
    Row odd = seedRow(QStringLiteral("ODD"), QStringLiteral("agent"));
    odd.auth = QStringLiteral("");
    odd.content = QString::fromUtf8("it's \"odd\";\n-- still content\n\xf0\x9f\x98\x80");
    odd.seq = -1;
    QVERIFY(!m_store->importRows({odd}).isError());

    const StoreResult<QByteArray> exported = DirectoryExporter::exportBytes(*m_store, format);
    QVERIFY2(exported.ok(), qPrintable(exported.error().message));
    const std::shared_ptr<SqlDirectoryStore> copy = openStore(QStringLiteral("copy.db"));
    QVERIFY(copy);
    const StoreResult<ImportReport> imported =
        DirectoryImporter::importBytes(*copy, exported.value(), legacy());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value().imported, 892);

    const QList<Row> original = m_store->allRows().value();
    const QList<Row> copied = copy->allRows().value();
    QCOMPARE(copied.size(), original.size());
    for (qsizetype i = 0; i < original.size(); ++i)
        QVERIFY2(copied.at(i) == original.at(i), qPrintable(original.at(i).key));
}

QTEST_GUILESS_MAIN(TestDirectoryImporter)
#include "tst_directoryimporter.moc"
