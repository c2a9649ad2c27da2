#include "dispatch/store/sqldialect.h"

using namespace Qt::StringLiterals;

// PostgreSQL keeps its bookkeeping in information_schema and in sequences; the applied
// migration is a row of schema_migrations (there is no user_version). Writers from several
// processes run at once, so a write transaction first takes a transaction-scoped advisory
// lock that stands for the event log's head; it is released by COMMIT or ROLLBACK.
const SqlDialect &SqlDialect::postgresql()
{
    static const SqlDialect dialect{
        u"PostgreSQL"_s,
        u"QPSQL"_s,
        u":/migrations/postgresql"_s,
        u"SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"_s,
        u"SELECT MAX(version) FROM schema_migrations"_s,
        u"INSERT INTO schema_migrations (version, applied_at) "
        "VALUES (%1, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"_s,
        u"SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = '%1'"_s,
        u"SELECT seq FROM events_seq_issued WHERE id = 1"_s,
        u"insertion_order"_s,
        // 0x43415044 is "CAPD": the one lock every Capdesk writer of this database takes.
        {u"BEGIN"_s, u"SELECT pg_advisory_xact_lock(1128353860)"_s},
        u"SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND pid = pg_backend_pid() AND classid = 0 AND objid = 1128353860)"_s,
        u"ILIKE"_s,
        u" RETURNING seq"_s,
        u"SELECT setval(pg_get_serial_sequence('%1', 'seq'), COALESCE((SELECT MAX(seq) FROM %1), 0) + 1, false)"_s,
        false,
        {u"23505"_s},
    };
    return dialect;
}
