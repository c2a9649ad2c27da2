#include "dispatch/store/qtsqlsummaryscan.h"

#include <QSqlError>

namespace QtSqlSummaryScan {

bool read(QSqlQuery &query, const std::function<void(const RowSummaryView &)> &sink)
{
    constexpr int kTexts = 5;
    QByteArray texts[kTexts];
    auto view = [&texts](int column) {
        return std::string_view(texts[column].constData(), std::size_t(texts[column].size()));
    };
    RowSummaryView summary;
    while (query.next()) {
        for (int i = 0; i < kTexts; ++i)
            texts[i] = query.value(i).toString().toUtf8();
        summary.key = view(0);
        summary.type = view(1);
        summary.category = view(2);
        summary.target = view(3);
        summary.updatedAt = view(4);
        summary.enabled = query.isNull(5) || query.value(5).toLongLong() != 0;
        summary.sensitive = query.value(6).toLongLong() != 0;
        sink(summary);
    }
    return !query.lastError().isValid();
}

} // namespace QtSqlSummaryScan
