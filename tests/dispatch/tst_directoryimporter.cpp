#include "directoryexporter.h"
#include "directoryimporter.h"
#include "fixturegenerator.h"
#include "sqldumpreader.h"
#include "sqlitedirectorystore.h"

#include <QFile>
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
    void importsGeneratedDump();
    void importsJsonArray();
    void importsAfterByteOrderMark();
    void refusesMissingFile();
    void exportImportRoundTrip_data();
    void exportImportRoundTrip();

private:
    std::shared_ptr<SqliteDirectoryStore> openStore(const QString &name);
    QString generatedDump();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqliteDirectoryStore> m_store;
};

std::shared_ptr<SqliteDirectoryStore> TestDirectoryImporter::openStore(const QString &name)
{
    StoreResult<std::shared_ptr<SqliteDirectoryStore>> store =
        SqliteDirectoryStore::open(m_dir->filePath(name));
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
        << QStringLiteral("line 2: unterminated quoted text");
    QTest::addRow("SQL: another table")
        << insert("A", "fn") + "INSERT INTO receipts VALUES (1);\n"
        << QStringLiteral("line 2: the dump writes table 'receipts', not 'directory'");
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
        << QStringLiteral("line 2: row 2 ('B') has type 'lambda', not one of fn, http, agent, flow");
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
        << QStringLiteral("line 2: row 1 ('A') has type 'soap', not one of fn, http, agent, flow");
    QTest::addRow("JSON: row without a key")
        << QByteArray("[\n  {\"type\": \"fn\"}\n]") << QStringLiteral("line 2: row 1 has no key");
    QTest::addRow("JSON: unknown field")
        << "[\n" + jsonRow("A", "fn") + ",\n  {\"key\": \"B\", \"colour\": 1}\n]"
        << QStringLiteral("line 3: row 2 ('B'): unknown field 'colour'");
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

    const StoreResult<int> imported = DirectoryImporter::importBytes(*m_store, bytes);
    QVERIFY(!imported.ok());
    QCOMPARE(imported.error().kind, StoreError::Kind::Invalid);
    QVERIFY2(imported.error().message.startsWith(message), qPrintable(imported.error().message));

    const StoreResult<QList<Row>> after = m_store->allRows();
    QVERIFY(after.ok());
    QCOMPARE(after.value().size(), before.value().size());
    QVERIFY(after.value() == before.value());
}

void TestDirectoryImporter::importsGeneratedDump()
{
    const QString path = generatedDump();
    QVERIFY(!path.isEmpty());

    const StoreResult<int> imported = DirectoryImporter::importFile(*m_store, path);
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value(), 891);

    // What the store holds is what the dump says, row by row, timestamps included.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    StoreResult<QList<Row>> expected = SqlDumpReader::read(QString::fromUtf8(file.readAll()));
    QVERIFY(expected.ok());
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
    const StoreResult<int> again = DirectoryImporter::importFile(*m_store, path);
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
    const StoreResult<int> imported = DirectoryImporter::importBytes(*m_store, json);
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value(), 3);
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
    const StoreResult<int> json =
        DirectoryImporter::importBytes(*m_store, "\xef\xbb\xbf[\n" + jsonRow("A", "fn") + "\n]");
    QVERIFY2(json.ok(), qPrintable(json.error().message));
    const StoreResult<int> sql = DirectoryImporter::importBytes(*m_store, "\xef\xbb\xbf" + insert("B", "fn"));
    QVERIFY2(sql.ok(), qPrintable(sql.error().message));
    QCOMPARE(m_store->allRows().value().size(), 2);
}

void TestDirectoryImporter::refusesMissingFile()
{
    const StoreResult<int> imported =
        DirectoryImporter::importFile(*m_store, m_dir->filePath(QStringLiteral("absent.sql")));
    QVERIFY(!imported.ok());
    QCOMPARE(imported.error().kind, StoreError::Kind::Io);
    QVERIFY(imported.error().message.contains(QStringLiteral("absent.sql")));
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
    const StoreResult<int> filled = DirectoryImporter::importFile(*m_store, path);
    QVERIFY2(filled.ok(), qPrintable(filled.error().message));
    // Rows the generator never writes: an empty string beside NULLs, text needing quotes.
    Row odd = seedRow(QStringLiteral("ODD"), QStringLiteral("agent"));
    odd.auth = QStringLiteral("");
    odd.content = QString::fromUtf8("it's \"odd\";\n-- still content\n\xf0\x9f\x98\x80");
    odd.seq = -1;
    QVERIFY(!m_store->importRows({odd}).isError());

    const StoreResult<QByteArray> exported = DirectoryExporter::exportBytes(*m_store, format);
    QVERIFY2(exported.ok(), qPrintable(exported.error().message));
    const std::shared_ptr<SqliteDirectoryStore> copy = openStore(QStringLiteral("copy.db"));
    QVERIFY(copy);
    const StoreResult<int> imported = DirectoryImporter::importBytes(*copy, exported.value());
    QVERIFY2(imported.ok(), qPrintable(imported.error().message));
    QCOMPARE(imported.value(), 892);

    const QList<Row> original = m_store->allRows().value();
    const QList<Row> copied = copy->allRows().value();
    QCOMPARE(copied.size(), original.size());
    for (qsizetype i = 0; i < original.size(); ++i)
        QVERIFY2(copied.at(i) == original.at(i), qPrintable(original.at(i).key));
}

QTEST_GUILESS_MAIN(TestDirectoryImporter)
#include "tst_directoryimporter.moc"
