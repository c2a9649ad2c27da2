#include "dispatch/row/rowmerge.h"

#include "dispatch/row/linediff.h"
#include "dispatch/row/rowschema.h"

#include <QStringList>

#include <algorithm>

namespace {

constexpr qsizetype kContext = 2;

// Stamped by the store on every write; never a user's choice.
bool isStamp(const QString &column)
{
    return column == QLatin1String("updated_at") || column == QLatin1String("created_at")
           || column == QLatin1String("key");
}

} // namespace

RowMerge::RowMerge(std::optional<Row> base, Row theirs, Row mine)
    : m_base(std::move(base)), m_theirs(std::move(theirs)), m_mine(std::move(mine))
{
    for (const QString &column : RowSchema::columns()) {
        if (isStamp(column))
            continue;
        Field field;
        field.column = column;
        field.base = m_base ? m_base->value(column) : QVariant();
        field.theirs = m_theirs.value(column);
        field.mine = m_mine.value(column);
        if (field.theirs == field.mine)
            continue;
        field.editedByMe = !m_base || field.mine != field.base;
        field.editedByThem = !m_base || field.theirs != field.base;
        field.choice = field.editedByMe ? Side::Mine : Side::Theirs;
        m_fields.append(field);
    }
}

bool RowMerge::choose(const QString &column, Side side)
{
    for (Field &field : m_fields) {
        if (field.column == column) {
            field.choice = side;
            return true;
        }
    }
    return false;
}

Row RowMerge::merged() const
{
    Row row = m_theirs;
    for (const Field &field : m_fields) {
        if (field.choice == Side::Mine)
            row.setValue(field.column, field.mine);
    }
    return row;
}

QString RowMerge::valueText(const QVariant &value)
{
    return value.isNull() ? QStringLiteral("NULL") : value.toString();
}

bool RowMerge::isMultiLine(const Field &field)
{
    for (const QVariant &value : {field.base, field.theirs, field.mine}) {
        if (value.toString().contains(u'\n'))
            return true;
    }
    return false;
}

QString RowMerge::changesFrom(const QString &base, const QString &text)
{
    using Kind = LineDiff::Kind;
    const QList<LineDiff::Line> lines = LineDiff::compare(base, text);
    QList<bool> near(lines.size(), false);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).kind == Kind::Same)
            continue;
        for (qsizetype j = std::max<qsizetype>(0, i - kContext);
             j <= std::min(lines.size() - 1, i + kContext); ++j)
            near[j] = true;
    }
    QStringList out;
    qsizetype folded = 0;
    auto flush = [&] {
        if (folded > 0)
            out.append(folded == 1 ? tr("  … 1 unchanged line") : tr("  … %1 unchanged lines").arg(folded));
        folded = 0;
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const LineDiff::Line &line = lines.at(i);
        if (!near.at(i)) {
            ++folded;
            continue;
        }
        flush();
        const QString mark = line.kind == Kind::Removed ? QStringLiteral("- ")
                             : line.kind == Kind::Added ? QStringLiteral("+ ")
                                                        : QStringLiteral("  ");
        out.append(mark + line.text);
    }
    flush();
    return out.join(u'\n');
}
