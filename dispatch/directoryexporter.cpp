#include "directoryexporter.h"

#include "rowjsoncodec.h"
#include "sqldumpwriter.h"

StoreResult<QByteArray> DirectoryExporter::exportBytes(const DirectoryStore &store, Format format)
{
    const StoreResult<QList<Row>> rows = store.allRows();
    if (!rows.ok())
        return rows.error();
    return format == Format::Json ? RowJsonCodec::encode(rows.value()) : SqlDumpWriter::write(rows.value());
}
