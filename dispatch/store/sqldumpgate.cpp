#include "dispatch/store/sqldumpgate.h"

#include "dispatch/store/sqldumplimits.h"

#include <sqlite3.h>

namespace {

bool isSchemaTable(const QString &table)
{
    return table == QLatin1String("sqlite_master") || table == QLatin1String("sqlite_schema")
           || table == QLatin1String("sqlite_temp_master");
}

} // namespace

SqlDumpGate::SqlDumpGate(sqlite3 *db)
{
    sqlite3_set_authorizer(db, &SqlDumpGate::authorize, this);
    sqlite3_progress_handler(db, SqlDumpLimits::progressInterval, &SqlDumpGate::progress, this);
}

void SqlDumpGate::startStatement(bool valuesForm)
{
    m_kind = Kind::None;
    m_object.clear();
    m_name.clear();
    m_refusal.clear();
    m_valuesForm = valuesForm;
    m_selects = 0;
    m_progressCalls = 0;
    m_analyze = false;
}

int SqlDumpGate::authorize(void *gate, int action, const char *a, const char *b, const char *, const char *)
{
    auto *self = static_cast<SqlDumpGate *>(gate);
    if (self->m_internal)
        return SQLITE_OK;
    return self->check(action, QString::fromUtf8(a), QString::fromUtf8(b));
}

int SqlDumpGate::progress(void *gate)
{
    auto *self = static_cast<SqlDumpGate *>(gate);
    if (self->m_internal || ++self->m_progressCalls <= SqlDumpLimits::maxProgressCalls)
        return 0;
    self->m_refusal = QStringLiteral("the statement takes more work than any dump row needs (over %1 steps)")
                          .arg(qint64(SqlDumpLimits::maxProgressCalls) * SqlDumpLimits::progressInterval);
    return 1;
}

int SqlDumpGate::deny(const QString &reason)
{
    if (m_refusal.isEmpty())
        m_refusal = reason;
    return SQLITE_DENY;
}

void SqlDumpGate::classify(Kind kind, const QString &object, const QString &name)
{
    if (m_kind == Kind::None) {
        m_kind = kind;
        m_object = object.toLower();
        m_name = name;
    }
}

int SqlDumpGate::check(int action, const QString &a, const QString &b)
{
    // ANALYZE reads and rewrites the statistics as it compiles; it is never run.
    if (m_analyze)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_PRAGMA:
        if (a.compare(QLatin1String("defer_foreign_keys"), Qt::CaseInsensitive) == 0
            || a.compare(QLatin1String("foreign_keys"), Qt::CaseInsensitive) == 0) {
            classify(Kind::Ignored, QString());
            return SQLITE_OK;
        }
        return deny(QStringLiteral("PRAGMA %1 is not allowed in a dump").arg(a));
    case SQLITE_TRANSACTION:
        if (a == QLatin1String("ROLLBACK"))
            return deny(
                QStringLiteral("the dump ends in ROLLBACK: it was exported from a database with errors"));
        classify(Kind::Ignored, QString());
        return SQLITE_OK;
    case SQLITE_CREATE_TABLE:
        classify(Kind::CreateTable, a);
        return SQLITE_OK;
    case SQLITE_CREATE_INDEX:
        classify(Kind::CreateIndex, b, a);
        return SQLITE_OK;
    case SQLITE_CREATE_TRIGGER:
        classify(Kind::CreateTrigger, b, a);
        return SQLITE_OK;
    case SQLITE_CREATE_VIEW:
        classify(Kind::CreateView, QString(), a);
        return SQLITE_OK;
    case SQLITE_REINDEX:
        return m_kind == Kind::CreateIndex ? SQLITE_OK
                                           : deny(QStringLiteral("REINDEX is not allowed in a dump"));
    case SQLITE_INSERT:
        // Creating anything writes the schema table; writing it any other way needs
        // PRAGMA writable_schema, which is refused above.
        if (isSchemaTable(a))
            return SQLITE_OK;
        classify(Kind::Insert, a);
        return SQLITE_OK;
    case SQLITE_UPDATE:
        if (isSchemaTable(a))
            return SQLITE_OK;
        return deny(QStringLiteral("UPDATE of table '%1' is not allowed in a dump").arg(a));
    case SQLITE_READ:
        // Creating an index (a UNIQUE column's too) reads the columns it covers.
        if (isSchemaTable(a) || m_kind == Kind::CreateIndex
            || (m_kind == Kind::CreateTable && a.toLower() == m_object))
            return SQLITE_OK;
        return deny(
            QStringLiteral("reading table '%1' is not allowed in a dump (only INSERT … VALUES)").arg(a));
    case SQLITE_DELETE:
        if (isSchemaTable(a))
            return deny(QStringLiteral("DROP is not allowed in a dump"));
        // ANALYZE (which sqlite3 .dump writes before refilling sqlite_stat1) starts by
        // emptying the statistics; it is never run.
        if (a.startsWith(QLatin1String("sqlite_stat")) && m_kind == Kind::None) {
            classify(Kind::Ignored, QString());
            m_analyze = true;
            return SQLITE_OK;
        }
        // sqlite3 .dump empties its AUTOINCREMENT bookkeeping before refilling it.
        if (a == QLatin1String("sqlite_sequence")) {
            classify(Kind::Ignored, QString());
            return SQLITE_OK;
        }
        return deny(QStringLiteral("DELETE from table '%1' is not allowed in a dump").arg(a));
    case SQLITE_SELECT:
        if (m_kind == Kind::Insert && m_valuesForm && ++m_selects == 1)
            return SQLITE_OK;
        // Refused once the statement is compiled (it never runs), so that what the SELECT
        // holds, a recursive WITH say, is named instead.
        if (m_refusal.isEmpty())
            m_refusal = QStringLiteral("a SELECT is not allowed in a dump (only INSERT … VALUES (…))");
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        if (b.compare(QLatin1String("replace"), Qt::CaseInsensitive) == 0
            || b.compare(QLatin1String("char"), Qt::CaseInsensitive) == 0)
            return SQLITE_OK;
        return deny(
            QStringLiteral("function %1() is not allowed in a dump (only replace() and char())").arg(b));
    case SQLITE_RECURSIVE:
        // Named even when the SELECT inside it was refused first: it is what the dump tried.
        m_refusal.clear();
        return deny(QStringLiteral("a recursive WITH is not allowed in a dump"));
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
        return deny(QStringLiteral("ATTACH and DETACH are not allowed in a dump"));
    case SQLITE_CREATE_VTABLE:
        return deny(QStringLiteral("CREATE VIRTUAL TABLE is not allowed in a dump"));
    case SQLITE_ANALYZE:
        classify(Kind::Ignored, QString());
        return SQLITE_OK;
    default:
        return deny(
            QStringLiteral("the statement is not allowed in a dump (authorizer action %1)").arg(action));
    }
}
