#include "views/shell/databaseopenactions.h"

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/postgreslocation.h"
#include "views/database/postgresopendialog.h"
#include "views/shell/fileactions.h"
#include "views/shell/recentfiles.h"

#include <QAction>
#include <QIcon>

DatabaseOpenActions::DatabaseOpenActions(FileActions &files, QWidget *dialogParent, QObject *parent)
    : QObject(parent), m_files(files), m_dialogParent(dialogParent),
      m_open(new QAction(QIcon::fromTheme(QStringLiteral("network-server-database")),
                         tr("Open Post&greSQL Directory…"), this))
{
    m_open->setObjectName(QStringLiteral("openPostgresAction"));
    m_open->setStatusTip(tr("Open a directory kept in a PostgreSQL database, shared with capdeskctl serve "
                            "and other owners"));
    connect(m_open, &QAction::triggered, this, &DatabaseOpenActions::chooseAndOpen);
}

void DatabaseOpenActions::chooseAndOpen()
{
    PostgresOpenDialog dialog(m_dialogParent);
    for (const QString &recent : RecentFiles::list()) {
        if (PostgresLocation::isUrl(recent)) {
            dialog.setUrl(recent);
            break;
        }
    }
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (!m_files.openLocation(dialog.url(), dialog.password()) || !dialog.passwordTyped())
        return;
    // Kept only now the server has let the user in: a mistyped password is never stored.
    const PostgresLocation location = PostgresLocation::parse(dialog.url()).value();
    KeychainStore().setAsync(
        location.keychainName(), dialog.password(), this,
        [this, display = location.display()](const KeychainStore::Outcome &stored) {
            emit statusMessage(
                stored.ok ? tr("The password of %1 is in the keychain").arg(display)
                          : tr("Opened; the password is used for this session only: %1").arg(stored.error));
        });
}
