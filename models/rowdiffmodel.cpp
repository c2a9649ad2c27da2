#include "models/rowdiffmodel.h"

#include "dispatch/row/linediff.h"
#include "dispatch/row/rowschema.h"

#include <QBrush>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPalette>

namespace {

// Unchanged lines kept around each change; longer unchanged stretches fold to one line.
constexpr int kContext = 2;

QString valueText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return QStringLiteral("NULL");
}

// One side of a line diff: that side's lines, changed ones marked, far-off unchanged
// stretches folded. Both sides fold the same stretches, so their lines stay aligned.
QString markedSide(const QList<LineDiff::Line> &lines, LineDiff::Kind changed)
{
    using Kind = LineDiff::Kind;
    QList<bool> nearChange(lines.size(), false);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).kind == Kind::Same)
            continue;
        for (qsizetype j = std::max<qsizetype>(0, i - kContext);
             j <= std::min(lines.size() - 1, i + kContext); ++j)
            nearChange[j] = true;
    }
    QStringList out;
    qsizetype folded = 0;
    auto flushFolded = [&] {
        if (folded > 0)
            out.append(folded == 1 ? RowDiffModel::tr("  … 1 unchanged line")
                                   : RowDiffModel::tr("  … %1 unchanged lines").arg(folded));
        folded = 0;
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const LineDiff::Line &line = lines.at(i);
        if (line.kind == Kind::Same && !nearChange.at(i)) {
            ++folded;
            continue;
        }
        flushFolded();
        if (line.kind == Kind::Same)
            out.append(QStringLiteral("  ") + line.text);
        else if (line.kind == changed)
            out.append((changed == Kind::Removed ? QStringLiteral("- ") : QStringLiteral("+ ")) + line.text);
    }
    flushFolded();
    return out.join(u'\n');
}

QStringList fieldOrder(const QJsonObject &before, const QJsonObject &after)
{
    QStringList fields = RowSchema::columns();
    for (const QJsonObject &object : {before, after}) {
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!fields.contains(it.key()))
                fields.append(it.key());
        }
    }
    return fields;
}

} // namespace

RowDiffModel::RowDiffModel(QObject *parent) : QAbstractTableModel(parent) {}

void RowDiffModel::setVersions(const QJsonValue &before, const QJsonValue &after)
{
    beginResetModel();
    m_changes.clear();
    const QJsonObject a = before.toObject();
    const QJsonObject b = after.toObject();
    for (const QString &field : fieldOrder(a, b)) {
        // Every write moves updated_at; the version list already shows each write's time.
        if (field == QLatin1String("updated_at"))
            continue;
        // A side without the row reads as NULL, so a create lists only the fields it set.
        const QJsonValue x = a.value(field).isUndefined() ? QJsonValue() : a.value(field);
        const QJsonValue y = b.value(field).isUndefined() ? QJsonValue() : b.value(field);
        if (x == y)
            continue;
        Change change{field, valueText(x), valueText(y), x.isNull(), y.isNull()};
        if (before.isNull())
            change.before = tr("(no row)");
        if (after.isNull())
            change.after = tr("(no row)");
        if (x.isString() && y.isString() && (change.before.contains(u'\n') || change.after.contains(u'\n'))) {
            const QList<LineDiff::Line> lines = LineDiff::compare(x.toString(), y.toString());
            change.before = markedSide(lines, LineDiff::Kind::Removed);
            change.after = markedSide(lines, LineDiff::Kind::Added);
        }
        m_changes.append(change);
    }
    endResetModel();
}

QStringList RowDiffModel::fields() const
{
    QStringList fields;
    for (const Change &change : m_changes)
        fields.append(change.field);
    return fields;
}

int RowDiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_changes.size());
}

int RowDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RowDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Change &change = m_changes.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case FieldColumn:
            return change.field;
        case BeforeColumn:
            return change.before;
        case AfterColumn:
            return change.after;
        }
        break;
    case Qt::FontRole:
        if (index.column() != FieldColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        break;
    case Qt::ForegroundRole:
        if ((index.column() == BeforeColumn && change.beforeMissing)
            || (index.column() == AfterColumn && change.afterMissing))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        break;
    }
    return {};
}

QVariant RowDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case FieldColumn:
        return tr("Field");
    case BeforeColumn:
        return tr("Before");
    case AfterColumn:
        return tr("After");
    }
    return {};
}
