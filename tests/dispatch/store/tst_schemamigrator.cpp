#include "dispatch/row/rowschema.h"
#include "dispatch/store/schemamigrator.h"
#include "dispatch/store/sqlstatementsplitter.h"

#include <QRegularExpression>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

// The migrator against real SQLite files: every shape the production table has had on
// its way to today's 18 columns arrives with no row lost, a second run does nothing, and
// a failure part-way leaves the file exactly as it was.
class TestSchemaMigrator : public QObject
{
    Q_OBJECT

private slots:
    void bundledMigrationsAreNumberedAscending();
    void freshFileReachesTheLatestVersion();
    void bringsEveryOldShapeUpToDate_data();
    void bringsEveryOldShapeUpToDate();
    void pendingFollowsUserVersion_data();
    void pendingFollowsUserVersion();
    void migrateIsIdempotent();
    void failurePartWayRollsBackEverything();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
};

namespace {

// One connection to one temporary file, removed again when the test is done with it.
class Connection
{
public:
    explicit Connection(const QString &path) : m_name(QStringLiteral("migrator-%1").arg(++s_counter))
    {
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        m_db.setDatabaseName(path);
        m_db.open();
    }
    ~Connection()
    {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_name);
    }
    Q_DISABLE_COPY_MOVE(Connection)

    QSqlDatabase &db() { return m_db; }

    bool exec(const QString &sql, QString *error = nullptr)
    {
        QSqlQuery query(m_db);
        if (query.exec(sql))
            return true;
        if (error)
            *error = query.lastError().text() + QStringLiteral(" in: ") + sql.left(200);
        return false;
    }

    QVariant scalar(const QString &sql)
    {
        QSqlQuery query(m_db);
        if (query.exec(sql) && query.next())
            return query.value(0);
        return {};
    }

    QStringList columns()
    {
        QStringList names;
        QSqlQuery query(m_db);
        query.exec(QStringLiteral("PRAGMA table_info(directory)"));
        while (query.next())
            names.append(query.value(1).toString());
        return names;
    }

    QList<QVariantList> rows(const QStringList &columns)
    {
        QList<QVariantList> rows;
        QSqlQuery query(m_db);
        if (!query.exec(QStringLiteral("SELECT %1 FROM directory ORDER BY key").arg(columns.join(u','))))
            return rows;
        while (query.next()) {
            QVariantList row;
            for (int i = 0; i < columns.size(); ++i)
                row.append(query.value(i));
            rows.append(row);
        }
        return rows;
    }

    QStringList schemaSql()
    {
        QStringList sql;
        QSqlQuery query(m_db);
        query.exec(QStringLiteral("SELECT sql FROM sqlite_master ORDER BY name"));
        while (query.next())
            sql.append(query.value(0).toString());
        return sql;
    }

private:
    static inline int s_counter = 0;
    QString m_name;
    QSqlDatabase m_db;
};

// Column definitions in the order production acquired them (0007, then the ALTERs).
struct ColumnDef
{
    const char *name;
    const char *definition;
    int migration;
};

const ColumnDef kHistory[] = {
    {"key", "key TEXT PRIMARY KEY", 7},
    {"type", "type TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow'))", 7},
    {"target", "target TEXT", 7},
    {"auth", "auth TEXT", 7},
    {"content", "content TEXT", 7},
    {"updated_at", "updated_at TEXT NOT NULL", 7},
    {"category", "category TEXT", 12},
    {"allowed_categories", "allowed_categories TEXT", 12},
    {"seq", "seq INTEGER", 12},
    {"enabled", "enabled INTEGER DEFAULT 1", 18},
    {"planner_visible", "planner_visible INTEGER DEFAULT 1", 18},
    {"planner_rank", "planner_rank INTEGER DEFAULT 100", 18},
    {"input_schema", "input_schema TEXT", 18},
    {"examples", "examples TEXT", 18},
    {"runner", "runner TEXT", 64},
    {"sensitive", "sensitive INTEGER DEFAULT 0", 118},
    {"includes", "includes TEXT", 183},
    {"created_at", "created_at TEXT", 184},
};

// The table as it stood after migration `upTo`, optionally with extra columns.
QString tableAsOf(int upTo, const QStringList &extra = {})
{
    QStringList definitions;
    for (const ColumnDef &column : kHistory) {
        if (column.migration <= upTo)
            definitions.append(QLatin1String(column.definition));
    }
    definitions += extra;
    return QStringLiteral("CREATE TABLE directory (%1)").arg(definitions.join(QStringLiteral(", ")));
}

QStringList columnsAsOf(int upTo)
{
    QStringList names;
    for (const ColumnDef &column : kHistory) {
        if (column.migration <= upTo)
            names.append(QLatin1String(column.name));
    }
    return names;
}

// The production DDL from SPEC §1, verbatim: note `sensitive` before `runner`.
QString productionTable()
{
    return QStringLiteral(
        "CREATE TABLE directory (\n"
        "  key TEXT PRIMARY KEY,\n"
        "  type TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),\n"
        "  target TEXT, auth TEXT, content TEXT, updated_at TEXT NOT NULL,\n"
        "  category TEXT, allowed_categories TEXT, seq INTEGER, enabled INTEGER DEFAULT 1,\n"
        "  planner_visible INTEGER DEFAULT 1, planner_rank INTEGER DEFAULT 100,\n"
        "  input_schema TEXT, examples TEXT, sensitive INTEGER DEFAULT 0, runner TEXT,\n"
        "  includes TEXT, created_at TEXT)");
}

// A value for `column` of test row `i`; row 2 holds NULL wherever the column allows it.
QVariant valueFor(const QString &column, int i)
{
    if (column == QLatin1String("key"))
        return QStringLiteral("ROW_%1").arg(i);
    if (column == QLatin1String("type"))
        return QStringList{QStringLiteral("fn"), QStringLiteral("http"), QStringLiteral("flow")}.at(i % 3);
    if (column == QLatin1String("updated_at"))
        return QStringLiteral("2026-07-26T04:36:1%1.832Z").arg(i);
    if (i == 2)
        return QVariant();
    if (column == QLatin1String("content"))
        return QStringLiteral("# WHAT: row %1 in Zürich 🙂\n[\"$1\"]").arg(i);
    if (RowSchema::isBooleanColumn(column))
        return qlonglong(column == QLatin1String("sensitive") ? 1 - i % 2 : i % 2);
    if (RowSchema::isIntegerColumn(column))
        return qlonglong(7 + i);
    return QStringLiteral("%1 #%2").arg(column).arg(i);
}

bool insertRows(Connection &connection, const QStringList &columns, int count, QString *error)
{
    for (int i = 0; i < count; ++i) {
        QSqlQuery query(connection.db());
        query.prepare(
            QStringLiteral("INSERT INTO directory (%1) VALUES (%2)")
                .arg(columns.join(u','), QStringList(columns.size(), QStringLiteral("?")).join(u',')));
        for (const QString &column : columns)
            query.addBindValue(valueFor(column, i));
        if (!query.exec()) {
            *error = query.lastError().text();
            return false;
        }
    }
    return true;
}

QVariant columnDefault(const QString &column)
{
    if (column == QLatin1String("enabled") || column == QLatin1String("planner_visible"))
        return qlonglong(1);
    if (column == QLatin1String("planner_rank"))
        return qlonglong(100);
    if (column == QLatin1String("sensitive"))
        return qlonglong(0);
    return {};
}

QList<int> numbers(const QList<SchemaMigrator::Migration> &migrations)
{
    QList<int> list;
    for (const SchemaMigrator::Migration &migration : migrations)
        list.append(migration.number);
    return list;
}

// SQLite's column limit (SQLITE_MAX_COLUMN, 2000 unless the build says otherwise).
int columnLimit(Connection &connection)
{
    QSqlQuery query(connection.db());
    query.exec(QStringLiteral("PRAGMA compile_options"));
    while (query.next()) {
        const QString option = query.value(0).toString();
        if (option.startsWith(QLatin1String("MAX_COLUMN=")))
            return option.section(u'=', 1).toInt();
    }
    return 2000;
}

} // namespace

void TestSchemaMigrator::bundledMigrationsAreNumberedAscending()
{
    const QList<SchemaMigrator::Migration> migrations = SchemaMigrator::bundledMigrations();
    QVERIFY(!migrations.isEmpty());
    const QList<int> list = numbers(migrations);
    for (int i = 1; i < list.size(); ++i)
        QVERIFY2(list.at(i - 1) < list.at(i), qPrintable(migrations.at(i).name));
    for (int required : {7, 12, 18, 64, 118, 183, 184})
        QVERIFY2(list.contains(required), qPrintable(QString::number(required)));
    QCOMPARE(SchemaMigrator::latestVersion(), list.last());
    QVERIFY(SchemaMigrator::latestVersion() >= 184);

    static const QRegularExpression fileName(QStringLiteral("^(\\d{4})_[a-z0-9_]+\\.sql$"));
    for (const SchemaMigrator::Migration &migration : migrations) {
        const QRegularExpressionMatch match = fileName.match(migration.name);
        QVERIFY2(match.hasMatch(), qPrintable(migration.name));
        QCOMPARE(match.captured(1).toInt(), migration.number);
        // CONTRIBUTING: each starts with a comment saying why.
        QVERIFY2(migration.sql.trimmed().startsWith(QLatin1String("--")), qPrintable(migration.name));
        QVERIFY2(migration.sql.contains(QLatin1String("directory")), qPrintable(migration.name));
    }
}

void TestSchemaMigrator::freshFileReachesTheLatestVersion()
{
    Connection connection(m_dir.filePath(QStringLiteral("fresh%1.db").arg(++m_counter)));
    QVERIFY(connection.db().isOpen());
    {
        SchemaMigrator migrator(connection.db());
        QCOMPARE(migrator.currentVersion(), 0);
        QCOMPARE(numbers(migrator.pending()), numbers(SchemaMigrator::bundledMigrations()));
        const StoreError error = migrator.migrate();
        QVERIFY2(!error.isError(), qPrintable(error.message));
        QCOMPARE(migrator.currentVersion(), SchemaMigrator::latestVersion());
        QVERIFY(migrator.pending().isEmpty());
    }
    const QStringList columns = connection.columns();
    QCOMPARE(columns.size(), RowSchema::columns().size());
    QCOMPARE(QSet<QString>(columns.cbegin(), columns.cend()),
             QSet<QString>(RowSchema::columns().cbegin(), RowSchema::columns().cend()));

    // The defaults and constraints production relies on.
    QString error;
    QVERIFY2(connection.exec(
                 QStringLiteral("INSERT INTO directory (key, type, updated_at) VALUES ('NOW', 'fn', 'x')"),
                 &error),
             qPrintable(error));
    QCOMPARE(connection.rows({QStringLiteral("enabled"), QStringLiteral("planner_visible"),
                              QStringLiteral("planner_rank"), QStringLiteral("sensitive")}),
             (QList<QVariantList>{{qlonglong(1), qlonglong(1), qlonglong(100), qlonglong(0)}}));
    QVERIFY(!connection.exec(
        QStringLiteral("INSERT INTO directory (key, type, updated_at) VALUES ('A1', 'sql', 'x')")));
    QVERIFY(!connection.exec(
        QStringLiteral("INSERT INTO directory (key, type, updated_at) VALUES ('NOW', 'fn', 'y')")));
    QVERIFY(!connection.exec(QStringLiteral("INSERT INTO directory (key, type) VALUES ('B1', 'fn')")));

    // The one row written outside Capdesk's event log is counted for the change feed.
    QSqlQuery outside(connection.db());
    QVERIFY(outside.exec(QStringLiteral("SELECT counted, recorded FROM directory_outside_writes"))
            && outside.next());
    QCOMPARE(outside.value(0).toInt(), 1);
    QCOMPARE(outside.value(1).toInt(), 0);
}

void TestSchemaMigrator::bringsEveryOldShapeUpToDate_data()
{
    QTest::addColumn<QString>("ddl");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<int>("userVersion");

    // Production files carry no bookkeeping (user_version 0) whatever columns they hold.
    QTest::addRow("production, all 18 columns") << productionTable() << RowSchema::columns() << 0;
    for (int upTo : {7, 12, 18, 64, 118, 183}) {
        QTest::addRow("production as of %04d", upTo) << tableAsOf(upTo) << columnsAsOf(upTo) << 0;
    }
    QTest::addRow("missing only includes and created_at") << tableAsOf(118) << columnsAsOf(118) << 0;
    QTest::addRow("missing only created_at, production order")
        << QString(productionTable()).remove(QStringLiteral(", created_at TEXT"))
        << QStringList(RowSchema::columns().mid(0, 17)) << 0;
    // A file an earlier Capdesk build migrated itself.
    QTest::addRow("app file at 0018") << tableAsOf(18) << columnsAsOf(18) << 18;
    QTest::addRow("app file at 0183") << tableAsOf(183) << columnsAsOf(183) << 183;
    QTest::addRow("app file at 0185") << tableAsOf(184) << columnsAsOf(184) << 185;
}

void TestSchemaMigrator::bringsEveryOldShapeUpToDate()
{
    QFETCH(QString, ddl);
    QFETCH(QStringList, present);
    QFETCH(int, userVersion);

    Connection connection(m_dir.filePath(QStringLiteral("old%1.db").arg(++m_counter)));
    QString error;
    QVERIFY2(connection.exec(ddl, &error), qPrintable(error));
    // A file at 0185 or later holds the engine's tables beside `directory`, as 0185 made them.
    for (const SchemaMigrator::Migration &migration : SchemaMigrator::bundledMigrations()) {
        if (migration.number != 185 || userVersion < 185)
            continue;
        const StoreResult<QList<SqlStatement>> statements = SqlStatementSplitter::split(migration.sql);
        QVERIFY(statements.ok());
        for (const SqlStatement &statement : statements.value())
            QVERIFY2(connection.exec(statement.text, &error), qPrintable(error));
    }
    QVERIFY2(connection.exec(QStringLiteral("PRAGMA user_version = %1").arg(userVersion), &error),
             qPrintable(error));
    QVERIFY2(insertRows(connection, present, 3, &error), qPrintable(error));
    QCOMPARE(connection.columns(), present);
    const QList<QVariantList> before = connection.rows(present);
    QCOMPARE(before.size(), 3);

    {
        SchemaMigrator migrator(connection.db());
        QCOMPARE(migrator.currentVersion(), userVersion);
        const StoreError result = migrator.migrate();
        QVERIFY2(!result.isError(), qPrintable(result.message));
        QCOMPARE(migrator.currentVersion(), SchemaMigrator::latestVersion());
    }

    const QStringList columns = connection.columns();
    QCOMPARE(columns.size(), RowSchema::columns().size());
    for (const QString &column : RowSchema::columns())
        QVERIFY2(columns.contains(column), qPrintable(column));
    // The columns it had come first, in their old order: nothing was rebuilt.
    QCOMPARE(columns.mid(0, present.size()), present);

    // No row lost or changed; added columns hold their defaults (or NULL).
    QCOMPARE(connection.rows(present), before);
    QStringList added;
    for (const QString &column : RowSchema::columns()) {
        if (!present.contains(column))
            added.append(column);
    }
    if (!added.isEmpty()) {
        QVariantList defaults;
        for (const QString &column : added)
            defaults.append(columnDefault(column));
        const QList<QVariantList> after = connection.rows(added);
        QCOMPARE(after.size(), 3);
        for (const QVariantList &row : after) {
            QCOMPARE(row.size(), defaults.size());
            for (int i = 0; i < row.size(); ++i) {
                QVERIFY2(row.at(i).isNull() == defaults.at(i).isNull(), qPrintable(added.at(i)));
                QVERIFY2(row.at(i).isNull() || row.at(i).toLongLong() == defaults.at(i).toLongLong(),
                         qPrintable(added.at(i)));
            }
        }
    }
}

void TestSchemaMigrator::pendingFollowsUserVersion_data()
{
    QTest::addColumn<int>("userVersion");
    QTest::addColumn<QList<int>>("expected");

    const QList<int> all = numbers(SchemaMigrator::bundledMigrations());
    QTest::addRow("0") << 0 << all;
    QTest::addRow("6") << 6 << all;
    QTest::addRow("7") << 7 << all.mid(1);
    QTest::addRow("18") << 18 << all.mid(all.indexOf(64));
    QTest::addRow("100 (between two)") << 100 << all.mid(all.indexOf(118));
    QTest::addRow("183") << 183 << all.mid(all.indexOf(184));
    QTest::addRow("latest") << SchemaMigrator::latestVersion() << QList<int>();
    QTest::addRow("newer than this build") << SchemaMigrator::latestVersion() + 100 << QList<int>();
}

void TestSchemaMigrator::pendingFollowsUserVersion()
{
    QFETCH(int, userVersion);
    QFETCH(QList<int>, expected);

    Connection connection(m_dir.filePath(QStringLiteral("pending%1.db").arg(++m_counter)));
    QVERIFY(connection.exec(QStringLiteral("PRAGMA user_version = %1").arg(userVersion)));
    const SchemaMigrator migrator(connection.db());
    QCOMPARE(migrator.currentVersion(), userVersion);
    QCOMPARE(numbers(migrator.pending()), expected);
}

void TestSchemaMigrator::migrateIsIdempotent()
{
    const QString path = m_dir.filePath(QStringLiteral("twice%1.db").arg(++m_counter));
    QStringList schema;
    {
        Connection connection(path);
        QString error;
        QVERIFY2(connection.exec(tableAsOf(64), &error), qPrintable(error));
        QVERIFY2(insertRows(connection, columnsAsOf(64), 2, &error), qPrintable(error));
        SchemaMigrator migrator(connection.db());
        QVERIFY(!migrator.migrate().isError());
        schema = connection.schemaSql();
        const QList<QVariantList> rows = connection.rows(RowSchema::columns());

        const StoreError second = migrator.migrate();
        QVERIFY2(!second.isError(), qPrintable(second.message));
        QCOMPARE(migrator.currentVersion(), SchemaMigrator::latestVersion());
        QCOMPARE(connection.schemaSql(), schema);
        QCOMPARE(connection.rows(RowSchema::columns()), rows);
    }
    // And again from a new connection to the same file.
    Connection again(path);
    SchemaMigrator migrator(again.db());
    QVERIFY(migrator.pending().isEmpty());
    QVERIFY(!migrator.migrate().isError());
    QCOMPARE(again.schemaSql(), schema);
    QCOMPARE(again.rows({QStringLiteral("key")}).size(), 2);
}

void TestSchemaMigrator::failurePartWayRollsBackEverything()
{
    // A file whose directory table sits exactly so many columns under SQLite's limit that
    // 0012…0183 add their eleven columns and 0184's created_at is one too many. Nothing
    // is wrong with the migrations; the point is a real failure after several of them
    // have changed the file.
    Connection connection(m_dir.filePath(QStringLiteral("full%1.db").arg(++m_counter)));
    const int limit = columnLimit(connection);
    const QStringList original = columnsAsOf(7);
    const int added = int(columnsAsOf(183).size() - original.size());
    QCOMPARE(added, 11);
    QStringList filler;
    for (int i = int(original.size()) + added; i < limit; ++i)
        filler.append(QStringLiteral("extra_%1 TEXT").arg(i));
    QString error;
    QVERIFY2(connection.exec(tableAsOf(7, filler), &error), qPrintable(error));
    QVERIFY2(insertRows(connection, original, 3, &error), qPrintable(error));
    const QStringList columnsBefore = connection.columns();
    QCOMPARE(columnsBefore.size(), limit - added);
    const QStringList schemaBefore = connection.schemaSql();
    const QList<QVariantList> rowsBefore = connection.rows(original);

    SchemaMigrator migrator(connection.db());
    const StoreError result = migrator.migrate();
    QVERIFY(result.isError());
    QCOMPARE(result.kind, StoreError::Kind::Io);
    QVERIFY2(result.message.contains(QLatin1String("0184")), qPrintable(result.message));

    // Not one of the eleven columns 0012…0183 added survives; the version is untouched.
    QCOMPARE(connection.columns(), columnsBefore);
    QCOMPARE(connection.schemaSql(), schemaBefore);
    QCOMPARE(migrator.currentVersion(), 0);
    QCOMPARE(numbers(migrator.pending()), numbers(SchemaMigrator::bundledMigrations()));
    QCOMPARE(connection.rows(original), rowsBefore);

    // No transaction was left open: the file takes a plain write, and a retry fails the
    // same way without piling up.
    QVERIFY2(connection.exec(
                 QStringLiteral("INSERT INTO directory (key, type, updated_at) VALUES ('LATER', 'fn', 'x')"),
                 &error),
             qPrintable(error));
    QVERIFY(migrator.migrate().isError());
    QCOMPARE(connection.columns(), columnsBefore);
    QCOMPARE(connection.rows({QStringLiteral("key")}).size(), 4);
}

QTEST_GUILESS_MAIN(TestSchemaMigrator)
#include "tst_schemamigrator.moc"
