#include "dispatch/store/outsidewritereport.h"

#include "dispatch/store/eventlog.h"
#include "dispatch/store/writetransaction.h"

#include <QJsonObject>
#include <QSqlQuery>

namespace OutsideWriteReport {

void append(QSqlDatabase &db)
{
    WriteTransaction transaction(db);
    if (transaction.startError().isError())
        return;
    qint64 unreported = 0;
    {
        // Read again under the write lock: another poller may have reported them.
        QSqlQuery marks(db);
        if (!marks.exec(
                QStringLiteral("SELECT counted - recorded FROM directory_outside_writes WHERE id = 1"))
            || !marks.next())
            return;
        unreported = marks.value(0).toLongLong();
    }
    if (unreported <= 0)
        return;
    LogEvent event;
    event.kind = kKind;
    event.action = QStringLiteral("detect");
    event.actor = QStringLiteral("engine:change-feed");
    event.detail = QJsonObject{{QStringLiteral("row_writes"), unreported}};
    if (EventLog(db).append(event).isError())
        return;
    QSqlQuery settle(db);
    if (settle.exec(QStringLiteral("UPDATE directory_outside_writes SET recorded = counted WHERE id = 1")))
        transaction.commit();
}

} // namespace OutsideWriteReport
