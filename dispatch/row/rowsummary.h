#pragma once

#include <QString>

#include <string_view>

// The same columns as raw UTF-8, valid only during the scan callback: the bulk path that
// loads 100,000 summaries without building a QString per cell.
struct RowSummaryView
{
    std::string_view key;
    std::string_view type;
    std::string_view category;
    std::string_view target;
    std::string_view updatedAt;
    bool enabled = true;
    bool sensitive = false;
};

// The handful of columns the directory table shows; the full row is fetched on demand.
struct RowSummary
{
    QString key;
    QString type;
    QString category;
    QString target;
    QString updatedAt;
    bool enabled = true;
    bool sensitive = false;

    static RowSummary of(const RowSummaryView &view)
    {
        auto text = [](std::string_view bytes) {
            return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
        };
        return {text(view.key),       text(view.type), text(view.category), text(view.target),
                text(view.updatedAt), view.enabled,    view.sensitive};
    }
};
