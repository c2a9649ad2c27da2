#include "dispatch/store/sampledirectory.h"

#include "dispatch/core/isotime.h"
#include "dispatch/row/rowjsoncodec.h"

#include <QFile>

StoreResult<QList<Row>> SampleDirectory::rows()
{
    QFile file(QStringLiteral(":/sample/directory.json"));
    if (!file.open(QIODevice::ReadOnly))
        return StoreError::make(StoreError::Kind::Io,
                                QStringLiteral("the sample directory is missing from this build"));
    StoreResult<QList<Row>> rows = RowJsonCodec::decode(file.readAll());
    if (!rows.ok())
        return rows;
    const QString now = IsoTime::nowUtc();
    for (Row &row : rows.value()) {
        row.updatedAt = now;
        row.createdAt = now;
    }
    return rows;
}
