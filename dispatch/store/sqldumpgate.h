#pragma once

#include <QHash>
#include <QString>

struct sqlite3;

// The authorizer a SQL dump is prepared behind (sqlite3_set_authorizer), one statement at a
// time. A dump may only create tables, indexes, triggers and views, insert literal values,
// name the two harmless pragmas D1 and sqlite3 write, open and close a transaction, and
// call replace() and char(), which `sqlite3 .dump` wraps around line breaks. Everything
// else (other functions, SELECT and recursive WITH, reading a table, ATTACH, UPDATE, DELETE,
// DROP, other pragmas, bound parameters) is refused with a reason naming what was found.
class SqlDumpGate final
{
public:
    enum class Kind { None, Ignored, CreateTable, CreateIndex, CreateTrigger, CreateView, Insert };

    // Installs the authorizer and a progress handler on `db`; the gate must outlive it.
    explicit SqlDumpGate(sqlite3 *db);

    // Before each dump statement is prepared. `valuesForm`: its text reads
    // INSERT … VALUES, the only statement that may contain one SELECT (a multi-row VALUES).
    void startStatement(bool valuesForm);
    // While the reader runs its own queries, nothing is checked.
    void setInternal(bool internal) { m_internal = internal; }

    Kind kind() const { return m_kind; }
    QString object() const { return m_object; } // the table created, indexed or written
    QString name() const { return m_name; } // the index, trigger or view created
    // Why the statement was refused; empty when it was not. Checked after a successful
    // prepare too: a SELECT is refused there, once everything in it has been named.
    QString refusal() const { return m_refusal; }

private:
    static int authorize(void *gate, int action, const char *a, const char *b, const char *, const char *);
    static int progress(void *gate);
    int check(int action, const QString &a, const QString &b);
    int deny(const QString &reason);
    void classify(Kind kind, const QString &object, const QString &name = QString());

    Kind m_kind = Kind::None;
    QString m_object;
    QString m_name;
    QString m_refusal;
    bool m_valuesForm = false;
    int m_selects = 0;
    int m_progressCalls = 0;
    bool m_internal = false;
    bool m_analyze = false;
};
