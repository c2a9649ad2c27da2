#pragma once

#include <QString>
#include <QStringList>

// The column vocabulary of the directory table, shared by the store, the codecs and the
// REST patch allow-list.
namespace RowSchema {

// The 18 production columns, in table order.
const QStringList &columns();

// The four legal values of `type`.
const QStringList &types();
bool isKnownType(const QString &type);

// The 13 fields a PATCH may name (SPEC §8); `sensitive` and `runner` are not among them.
const QStringList &patchableFields();

// Columns stored as INTEGER (0/1 for the booleans).
bool isIntegerColumn(const QString &column);
bool isBooleanColumn(const QString &column);

} // namespace RowSchema
