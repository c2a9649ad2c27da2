#include "views/common/rowstext.h"

#include <QCoreApplication>
#include <QLocale>

namespace RowsText {

QString rows(int count)
{
    if (count == 1)
        return QCoreApplication::translate("RowsText", "1 row");
    return QCoreApplication::translate("RowsText", "%1 rows").arg(QLocale().toString(count));
}

} // namespace RowsText
