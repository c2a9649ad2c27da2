#pragma once

#include <QHash>
#include <QIcon>
#include <QString>

// The four row types' icons (resources/icons/<type>.svg) and the application icon.
namespace TypeIcons {

// type name → icon, for DirectoryTableModel::setTypeIcons and the editor.
QHash<QString, QIcon> all();
QIcon forType(const QString &type);
QIcon application();

} // namespace TypeIcons
