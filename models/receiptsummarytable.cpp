#include "models/receiptsummarytable.h"

#include <algorithm>
#include <limits>

namespace {

// Ends each id in the arena, so a match never straddles two ids. Needles are typed
// text and never contain it.
constexpr char kSeparator = '\x1f';
constexpr std::size_t kMaxId = std::numeric_limits<std::uint8_t>::max();

std::string_view clippedId(std::string_view id)
{
    return id.substr(0, std::min(id.size(), kMaxId)); // ids are ASCII (SPEC §6)
}

QString toQString(std::string_view bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
qint64 daysFromCivil(qint64 year, unsigned month, unsigned day)
{
    year -= month <= 2;
    const qint64 era = (year >= 0 ? year : year - 399) / 400;
    const unsigned yearOfEra = unsigned(year - era * 400);
    const unsigned dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + qint64(dayOfEra) - 719468;
}

bool readDigits(std::string_view text, std::size_t at, std::size_t count, int *value)
{
    if (at + count > text.size())
        return false;
    int result = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        result = result * 10 + (text[i] - '0');
    }
    *value = result;
    return true;
}

} // namespace

std::uint32_t ReceiptSummaryTable::Pool::intern(std::string_view text)
{
    const auto found = ids.find(text);
    if (found != ids.end())
        return found->second;
    const auto id = std::uint32_t(texts.size());
    texts.emplace_back(text);
    ids.emplace(texts.back(), id);
    return id;
}

void ReceiptSummaryTable::reserve(int receipts)
{
    m_records.reserve(std::size_t(receipts));
    m_ids.reserve(std::size_t(receipts) * 40); // inv_ + 10, t_ + 8, and often a parent
}

void ReceiptSummaryTable::append(const ReceiptSummaryView &receipt)
{
    if (m_ids.size() > std::numeric_limits<std::uint32_t>::max() - 3 * (kMaxId + 1))
        qFatal("ReceiptSummaryTable: id arena is full");
    Record record;
    record.seq = receipt.seq;
    record.startedMsecs = parseIsoMsecs(receipt.startedAt);
    record.durationMs = receipt.durationMs;
    record.material = receipt.material;
    record.idsOffset = std::uint32_t(m_ids.size());
    const std::string_view id = clippedId(receipt.invocationId);
    const std::string_view trace = clippedId(receipt.trace);
    const std::string_view parent = clippedId(receipt.parent);
    record.idLength = std::uint8_t(id.size());
    record.traceLength = std::uint8_t(trace.size());
    record.parentLength = std::uint8_t(parent.size());
    m_ids.append(id).append(1, kSeparator).append(trace).append(1, kSeparator).append(parent);
    const std::string_view texts[4] = {receipt.key, receipt.actor, receipt.runner, receipt.status};
    for (int column = 0; column < 4; ++column)
        record.text[column] = m_pools[column].intern(texts[column]);
    m_records.push_back(record);
}

void ReceiptSummaryTable::appendAll(const ReceiptSummaryTable &newer)
{
    reserve(size() + newer.size());
    for (int i = 0; i < newer.size(); ++i) {
        const Record &record = newer.m_records[std::size_t(i)];
        ReceiptSummaryView view;
        view.seq = record.seq;
        view.invocationId = newer.invocationIdBytes(i);
        view.trace = newer.traceBytes(i);
        view.parent = newer.parentBytes(i);
        view.key = newer.text(Field::Key, record.text[0]);
        view.actor = newer.text(Field::Actor, record.text[1]);
        view.runner = newer.text(Field::Runner, record.text[2]);
        view.status = newer.text(Field::Status, record.text[3]);
        view.durationMs = record.durationMs;
        view.material = record.material;
        append(view);
        m_records.back().startedMsecs = record.startedMsecs;
    }
}

int ReceiptSummaryTable::indexOfSeq(qint64 seq) const
{
    const auto it = std::lower_bound(m_records.begin(), m_records.end(), seq,
                                     [](const Record &record, qint64 s) { return record.seq < s; });
    return it != m_records.end() && it->seq == seq ? int(it - m_records.begin()) : -1;
}

int ReceiptSummaryTable::indexOfInvocation(std::string_view invocationId) const
{
    for (int i = size() - 1; i >= 0; --i) { // the newest are asked for most
        if (invocationIdBytes(i) == invocationId)
            return i;
    }
    return -1;
}

std::string_view ReceiptSummaryTable::ids(int index, int which) const
{
    const Record &record = m_records[std::size_t(index)];
    switch (which) {
    case 0:
        return std::string_view(m_ids.data() + record.idsOffset, record.idLength);
    case 1:
        return std::string_view(m_ids.data() + record.idsOffset + record.idLength + 1, record.traceLength);
    default:
        return std::string_view(m_ids.data() + record.idsOffset + record.idLength + record.traceLength + 2,
                                record.parentLength);
    }
}

std::string_view ReceiptSummaryTable::invocationIdBytes(int index) const
{
    return ids(index, 0);
}

std::string_view ReceiptSummaryTable::traceBytes(int index) const
{
    return ids(index, 1);
}

std::string_view ReceiptSummaryTable::parentBytes(int index) const
{
    return ids(index, 2);
}

QString ReceiptSummaryTable::invocationId(int index) const
{
    return toQString(invocationIdBytes(index));
}

QString ReceiptSummaryTable::trace(int index) const
{
    return toQString(traceBytes(index));
}

QString ReceiptSummaryTable::parent(int index) const
{
    const std::string_view bytes = parentBytes(index);
    return bytes.empty() ? QString() : toQString(bytes);
}

std::uint32_t ReceiptSummaryTable::textId(int index, Field field) const
{
    return m_records[std::size_t(index)].text[int(field)];
}

const std::string &ReceiptSummaryTable::text(Field field, std::uint32_t id) const
{
    return m_pools[int(field)].texts[id];
}

QString ReceiptSummaryTable::textOf(int index, Field field) const
{
    return toQString(text(field, textId(index, field)));
}

qint64 ReceiptSummaryTable::parseIsoMsecs(std::string_view text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
    if (!readDigits(text, 0, 4, &year) || text.size() < 20 || text[4] != '-'
        || !readDigits(text, 5, 2, &month) || text[7] != '-' || !readDigits(text, 8, 2, &day)
        || text[10] != 'T' || !readDigits(text, 11, 2, &hour) || text[13] != ':'
        || !readDigits(text, 14, 2, &minute) || text[16] != ':' || !readDigits(text, 17, 2, &second))
        return 0;
    std::size_t at = 19;
    if (text[at] == '.') {
        int scale = 100;
        for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
            millis += (text[at] - '0') * scale;
            scale /= 10;
        }
    }
    if (at + 1 != text.size() || text[at] != 'Z' || month < 1 || month > 12 || day < 1 || day > 31)
        return 0;
    const qint64 days = daysFromCivil(year, unsigned(month), unsigned(day));
    return ((days * 24 + hour) * 60 + minute) * 60000 + qint64(second) * 1000 + millis;
}

std::size_t ReceiptSummaryTable::bytesHeld() const
{
    std::size_t bytes = m_records.capacity() * sizeof(Record) + m_ids.capacity();
    for (const Pool &pool : m_pools) {
        for (const std::string &text : pool.texts)
            bytes += 2 * (text.capacity() + sizeof(std::string)) + sizeof(std::uint32_t);
    }
    return bytes;
}
