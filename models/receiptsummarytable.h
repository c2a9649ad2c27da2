#pragma once

#include "dispatch/receipts/receiptsummaryview.h"

#include <QString>
#include <QStringView>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// The viewer's per-receipt records for 100,000 receipts, kept compact: 48 bytes of
// numbers and string ids each, the key, actor, runner and status interned (a directory
// has far fewer distinct ones than receipts), and the ids back to back in one arena, so a
// search by id or trace is one memmem() pass. Records are in `seq` order, oldest first,
// and only ever appended, like the log itself.
class ReceiptSummaryTable final
{
public:
    ReceiptSummaryTable() = default;
    // Moves keep the interned texts where they are; a copy would leave its lookups
    // pointing into the original.
    ReceiptSummaryTable(ReceiptSummaryTable &&) = default;
    ReceiptSummaryTable &operator=(ReceiptSummaryTable &&) = default;
    ReceiptSummaryTable(const ReceiptSummaryTable &) = delete;
    ReceiptSummaryTable &operator=(const ReceiptSummaryTable &) = delete;

    int size() const { return int(m_records.size()); }
    void reserve(int receipts);
    // Receipts must come in increasing `seq`.
    void append(const ReceiptSummaryView &receipt);
    void appendAll(const ReceiptSummaryTable &newer);

    qint64 seq(int index) const { return m_records[std::size_t(index)].seq; }
    qint64 lastSeq() const { return m_records.empty() ? 0 : m_records.back().seq; }
    // Index of the receipt with this seq, or -1.
    int indexOfSeq(qint64 seq) const;
    int indexOfInvocation(std::string_view invocationId) const;

    qint64 startedMsecs(int index) const { return m_records[std::size_t(index)].startedMsecs; }
    qint64 durationMs(int index) const { return m_records[std::size_t(index)].durationMs; }
    bool material(int index) const { return m_records[std::size_t(index)].material; }
    std::string_view invocationIdBytes(int index) const;
    std::string_view traceBytes(int index) const;
    std::string_view parentBytes(int index) const;
    QString invocationId(int index) const;
    QString trace(int index) const;
    QString parent(int index) const; // null at the top level

    // Interned columns: an id per distinct text, and the texts by id.
    enum class Field { Key, Actor, Runner, Status };
    std::uint32_t textId(int index, Field field) const;
    const std::string &text(Field field, std::uint32_t id) const;
    QString textOf(int index, Field field) const;
    int distinctCount(Field field) const { return int(m_pools[int(field)].texts.size()); }

    // Milliseconds since the epoch of an ISO-8601 UTC time as the engine stamps it
    // (2026-07-26T04:36:19.832Z, fraction optional); 0 for anything else.
    static qint64 parseIsoMsecs(std::string_view text);

    std::size_t bytesHeld() const;

private:
    struct Record
    {
        qint64 seq = 0;
        qint64 startedMsecs = 0;
        qint64 durationMs = 0;
        std::uint32_t idsOffset = 0;
        std::uint32_t text[4] = {}; // key, actor, runner, status ids
        std::uint8_t idLength = 0;
        std::uint8_t traceLength = 0;
        std::uint8_t parentLength = 0;
        bool material = false;
    };
    struct Pool
    {
        std::deque<std::string> texts; // a deque never moves them, so `ids` may view them
        std::unordered_map<std::string_view, std::uint32_t> ids;
        std::uint32_t intern(std::string_view text);
    };

    std::string_view ids(int index, int which) const;

    std::vector<Record> m_records;
    std::string m_ids; // per receipt: invocation id, 0x1f, trace, 0x1f, parent
    Pool m_pools[4];
};
