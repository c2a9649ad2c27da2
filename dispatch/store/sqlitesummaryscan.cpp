#include "dispatch/store/sqlitesummaryscan.h"

#include <sqlite3.h>

namespace SqliteSummaryScan {

int read(sqlite3_stmt *statement, const std::function<void(const RowSummaryView &)> &sink)
{
    auto text = [statement](int column) {
        const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
        return std::string_view(bytes ? bytes : "", std::size_t(sqlite3_column_bytes(statement, column)));
    };
    RowSummaryView view;
    int step = SQLITE_ROW;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        view.key = text(0);
        view.type = text(1);
        view.category = text(2);
        view.target = text(3);
        view.updatedAt = text(4);
        view.enabled =
            sqlite3_column_type(statement, 5) == SQLITE_NULL || sqlite3_column_int64(statement, 5) != 0;
        view.sensitive = sqlite3_column_int64(statement, 6) != 0;
        sink(view);
    }
    return step;
}

} // namespace SqliteSummaryScan
