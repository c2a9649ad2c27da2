#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

// One directory entry: every column of the production `directory` table.
// Nullable text columns keep the null/empty distinction (a null QString is SQL NULL),
// so a row read and written back is byte-for-byte what it was.
struct Row
{
    QString key;
    QString type;
    QString target;
    QString auth;
    QString content;
    QString updatedAt;
    QString category;
    QString allowedCategories;
    std::optional<qint64> seq;
    bool enabled = true;
    bool plannerVisible = true;
    qint64 plannerRank = 100;
    QString inputSchema;
    QString examples;
    bool sensitive = false;
    QString runner;
    QString includes;
    QString createdAt;

    // Column access by production column name ("updated_at", "planner_rank", …).
    // value() gives a null QVariant for SQL NULL.
    QVariant value(const QString &column) const;
    // Accepts what SQLite or JSON hands over; refuses a value of the wrong kind for the
    // column with a message naming the column, leaving the row unchanged.
    bool setValue(const QString &column, const QVariant &value, QString *error = nullptr);

    using TextMember = QString Row::*;
    // The member that holds text column `column`; null for the integer columns and for a
    // name that is no column. Lets a bulk reader resolve each column once, not per value.
    static TextMember textMember(const QString &column);

    // The REST/CLI representation: column names as keys, NULL as JSON null.
    QJsonObject toJson() const;
    // Strict, for rows from outside (RowJsonField): unknown members and values of the wrong
    // JSON type or range are refused by name; missing members keep their defaults.
    static std::optional<Row> fromJson(const QJsonObject &object, QString *error = nullptr);

    bool operator==(const Row &other) const;
    bool operator!=(const Row &other) const { return !(*this == other); }
};
