#include "dispatch/store/directoryexporter.h"

#include "dispatch/row/rowjsoncodec.h"
#include "dispatch/store/sqldumpwriter.h"

StoreResult<QByteArray> DirectoryExporter::exportBytes(const DirectoryStore &store, Format format)
{
    const StoreResult<QList<Row>> rows = store.allRows();
    if (!rows.ok())
        return rows.error();
    return format == Format::Json ? RowJsonCodec::encode(rows.value()) : SqlDumpWriter::write(rows.value());
}
