#pragma once

#include <QList>
#include <QString>
#include <QStringList>

struct Row;

// One declared argument of a row: `$index`, what to call it and what it is for.
struct ArgumentSlot
{
    int index = 0; // N of $N, 1-based
    QString name; // "latitude"; "$N" when nothing names it
    QString description; // the parenthetical of an ARGS entry, or the schema's description
    bool takesRest = false; // declared as $N+: the rest of the body, pipes included
    bool required = false; // input_schema's `required`

    bool operator==(const ArgumentSlot &other) const;
    bool operator!=(const ArgumentSlot &other) const { return !(*this == other); }
};

// The arguments a row expects, for the shape preview's argument form. Read from the
// `# ARGS:` doc line when it says something usable, else from `input_schema`, else from
// the highest $N the target and payload use. The body they make is still one string
// (SPEC §2): the form only splits it and joins it back.
class ArgumentSpec final
{
public:
    enum class Source { None, ArgsLine, InputSchema, Placeholders };

    static ArgumentSpec fromRow(const Row &row);
    // The ARGS doc line alone. `usable` is false for free text ("see content"), which
    // declares nothing; "none" is usable and declares no argument.
    static ArgumentSpec fromArgsLine(const QString &text, bool *usable = nullptr);
    static ArgumentSpec fromInputSchema(const QString &schemaText);
    static ArgumentSpec fromPlaceholders(const Row &row);

    const QList<ArgumentSlot> &arguments() const { return m_arguments; }
    qsizetype count() const { return m_arguments.size(); }
    bool isEmpty() const { return m_arguments.isEmpty(); }
    Source source() const { return m_source; }
    // Whether the last argument is a $N+ one, the only kind that may hold pipes.
    bool lastTakesRest() const;

    // The body the values make: joined with '|', trailing empty values left off.
    QString joinBody(const QStringList &values) const;
    // The body as count() values. Pieces beyond the last argument stay in it, pipes put
    // back, so joinBody(splitBody(b)) == b for every body.
    QStringList splitBody(const QString &body) const;
    // Indexes (0-based) of values that hold a '|' where it would shift the later args.
    QList<int> misplacedPipes(const QStringList &values) const;
    // The declared arguments `body` leaves empty (blank counts as empty). A call still runs
    // with them empty (SPEC §2), and ARGS has no way to mark one optional, so callers warn
    // and do not refuse.
    QList<ArgumentSlot> emptyIn(const QString &body) const;

    bool operator==(const ArgumentSpec &other) const;
    bool operator!=(const ArgumentSpec &other) const { return !(*this == other); }

private:
    // Sorts by index, drops repeats and fills gaps with unnamed slots.
    static QList<ArgumentSlot> normalised(QList<ArgumentSlot> found);

    QList<ArgumentSlot> m_arguments;
    Source m_source = Source::None;
};
