#pragma once

#include "dispatch/store/directorystore.h"

#include <QString>
#include <QStringView>

#include <cstdint>
#include <string>
#include <vector>

// The table's per-row records for 100,000 rows, kept compact: the display text of each
// row lives in one shared UTF-8 arena (key, category, target, updated_at back to back)
// and the searchable part in an ASCII-lowercased twin (key, category, target, each
// followed by a separator no needle contains), so a row costs ~2× its text plus 20 bytes
// and a filter keystroke is one memmem() pass over contiguous memory.
class SummaryTable final
{
public:
    enum class Type : std::uint8_t { Fn, Http, Agent, Flow, Unknown };
    // A row's hygiene state as the lint column shows it; Unknown until a lint reaches it.
    enum class Lint : std::uint8_t { Unknown, Clean, Warning, Error };

    int size() const { return int(m_records.size()); }
    void clear();
    void reserve(int rows, std::size_t textBytes);

    // Appends a row, or overwrites row `index` when given.
    int append(const RowSummary &summary);
    int append(const RowSummaryView &summary);
    void assign(int index, const RowSummary &summary);
    void removeAt(int index);
    // Removes every index whose flag is set, in one pass; returns old index → new index
    // (-1 for removed rows).
    std::vector<int> removeFlagged(const std::vector<char> &remove);

    QString key(int index) const;
    QString category(int index) const;
    QString target(int index) const;
    QString updatedAt(int index) const;
    Type type(int index) const { return m_records[index].type; }
    QString typeName(int index) const;
    bool enabled(int index) const { return m_records[index].flags & EnabledFlag; }
    bool sensitive(int index) const { return m_records[index].flags & SensitiveFlag; }
    bool modified(int index) const { return m_records[index].flags & ModifiedFlag; }
    void setModified(int index, bool modified);
    Lint lint(int index) const { return Lint((m_records[index].flags & LintMask) >> LintShift); }
    void setLint(int index, Lint lint);

    // Raw UTF-8 views for sorting without decoding.
    std::string_view keyBytes(int index) const { return field(index, 0); }
    std::string_view categoryBytes(int index) const { return field(index, 1); }
    std::string_view targetBytes(int index) const { return field(index, 2); }
    std::string_view updatedAtBytes(int index) const { return field(index, 3); }

    // Row indexes in key order, as bytes compare (SQLite's BINARY collation).
    std::vector<int> keyOrder() const;

    // Per row: whether key, category or target contains `foldedNeedle` (already
    // ASCII-lowercased UTF-8, see foldAscii).
    std::vector<char> rowsContaining(std::string_view foldedNeedle) const;

    static Type typeFromName(const QString &name);
    static Type typeFromBytes(std::string_view name);
    static QString typeName(Type type);
    static std::string foldAscii(QStringView text);

    // Bytes held, for the benchmark's accounting.
    std::size_t arenaBytes() const { return m_text.capacity() + m_folded.capacity(); }

private:
    // The lint level shares the flags byte, so it moves with its record for free.
    enum Flag : std::uint8_t {
        EnabledFlag = 1,
        SensitiveFlag = 2,
        ModifiedFlag = 4,
        LintShift = 3,
        LintMask = 24
    };

    struct Record
    {
        std::uint32_t offset = 0;
        std::uint32_t foldedOffset = 0;
        std::uint16_t length[4] = {}; // key, category, target, updated_at
        Type type = Type::Unknown;
        std::uint8_t flags = 0;
    };

    Record store(const RowSummaryView &summary);
    std::string_view field(int index, int which) const;

    std::vector<Record> m_records;
    std::string m_text; // UTF-8 display text
    std::string m_folded; // key, category, target lowercased, each ending in a separator
    // Row indexes in m_folded order; rebuilt after edits, which append out of order.
    mutable std::vector<int> m_foldedOrder;
    mutable bool m_foldedOrderValid = false;
};
