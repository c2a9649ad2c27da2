#include "models/summarytable.h"

#include "models/packedtextsearch.h"

#include <QtEndian>

#include <algorithm>
#include <cstring>
#include <limits>

namespace {

constexpr std::size_t kMaxField = std::numeric_limits<std::uint16_t>::max();
// Ends each searchable field, so a match never straddles two fields. Needles are typed
// text and never contain it.
constexpr char kSeparator = '\x1f';

// Display text longer than 64 KiB is clipped for the table only; the full row stays in
// the store and the editor.
std::string_view clipped(std::string_view bytes)
{
    if (bytes.size() <= kMaxField)
        return bytes;
    std::size_t cut = kMaxField;
    while (cut > 0 && (static_cast<unsigned char>(bytes[cut]) & 0xC0) == 0x80)
        --cut; // never split a UTF-8 sequence
    return bytes.substr(0, cut);
}

char foldByte(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::string_view viewOf(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), std::size_t(bytes.size()));
}

// Keeps the UTF-8 copies alive while a RowSummaryView points into them.
struct Utf8Summary
{
    explicit Utf8Summary(const RowSummary &summary)
        : key(summary.key.toUtf8()), type(summary.type.toUtf8()), category(summary.category.toUtf8()),
          target(summary.target.toUtf8()), updatedAt(summary.updatedAt.toUtf8())
    {
        view = {viewOf(key),       viewOf(type),    viewOf(category), viewOf(target),
                viewOf(updatedAt), summary.enabled, summary.sensitive};
    }
    QByteArray key, type, category, target, updatedAt;
    RowSummaryView view;
};

QString toQString(std::string_view bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

} // namespace

void SummaryTable::clear()
{
    m_records.clear();
    m_text.clear();
    m_folded.clear();
    m_foldedOrder.clear();
    m_foldedOrderValid = false;
}

void SummaryTable::reserve(int rows, std::size_t textBytes)
{
    m_records.reserve(std::size_t(rows));
    m_text.reserve(textBytes);
    m_folded.reserve(textBytes);
}

SummaryTable::Record SummaryTable::store(const RowSummaryView &summary)
{
    Record record;
    if (m_text.size() > std::numeric_limits<std::uint32_t>::max() - 4 * kMaxField)
        qFatal("SummaryTable: display text arena is full");
    record.offset = std::uint32_t(m_text.size());
    record.foldedOffset = std::uint32_t(m_folded.size());
    const std::string_view fields[4] = {summary.key, summary.category, summary.target, summary.updatedAt};
    for (int i = 0; i < 4; ++i) {
        const std::string_view bytes = clipped(fields[i]);
        record.length[i] = std::uint16_t(bytes.size());
        m_text.append(bytes);
        if (i < 3) {
            const std::size_t from = m_folded.size();
            m_folded.append(bytes);
            std::transform(m_folded.begin() + std::ptrdiff_t(from), m_folded.end(),
                           m_folded.begin() + std::ptrdiff_t(from), foldByte);
            m_folded.push_back(kSeparator);
        }
    }
    record.type = typeFromBytes(summary.type);
    record.flags =
        std::uint8_t((summary.enabled ? EnabledFlag : 0) | (summary.sensitive ? SensitiveFlag : 0));
    return record;
}

int SummaryTable::append(const RowSummaryView &summary)
{
    m_foldedOrderValid = m_foldedOrderValid && m_records.size() == m_foldedOrder.size();
    if (m_foldedOrderValid)
        m_foldedOrder.push_back(int(m_records.size()));
    m_records.push_back(store(summary));
    return size() - 1;
}

int SummaryTable::append(const RowSummary &summary)
{
    const Utf8Summary utf8(summary);
    return append(utf8.view);
}

void SummaryTable::assign(int index, const RowSummary &summary)
{
    // The old text stays in the arena until the next load; edits are rare next to reads.
    const bool wasModified = modified(index);
    // The old level stays until the edited row is re-linted, so the icon does not blink.
    const Lint wasLint = lint(index);
    const Utf8Summary utf8(summary);
    m_records[std::size_t(index)] = store(utf8.view);
    setModified(index, wasModified);
    setLint(index, wasLint);
    m_foldedOrderValid = false;
}

std::vector<int> SummaryTable::removeFlagged(const std::vector<char> &remove)
{
    std::vector<int> remap(m_records.size(), -1);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_records.size(); ++i) {
        if (remove[i])
            continue;
        remap[i] = int(kept);
        m_records[kept++] = m_records[i];
    }
    m_records.resize(kept);
    m_foldedOrderValid = false;
    return remap;
}

void SummaryTable::removeAt(int index)
{
    m_records.erase(m_records.begin() + index);
    m_foldedOrderValid = false;
}

// 100,000 keys compared through their records cost ~60 ms, most of it memcmp calls on
// text scattered over the arena. Each key's first 16 bytes, packed big-endian into two
// integers beside its index, order almost every pair in registers over one contiguous
// array; only keys that share those bytes compare in full.
std::vector<int> SummaryTable::keyOrder() const
{
    struct Entry
    {
        std::uint64_t high;
        std::uint64_t low;
        int index;
    };
    std::vector<Entry> entries(m_records.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string_view key = keyBytes(int(i));
        unsigned char prefix[16] = {};
        std::memcpy(prefix, key.data(), std::min(key.size(), sizeof prefix));
        entries[i] = {qFromBigEndian<std::uint64_t>(prefix), qFromBigEndian<std::uint64_t>(prefix + 8),
                      int(i)};
    }
    std::sort(entries.begin(), entries.end(), [this](const Entry &a, const Entry &b) {
        if (a.high != b.high)
            return a.high < b.high;
        if (a.low != b.low)
            return a.low < b.low;
        return keyBytes(a.index) < keyBytes(b.index);
    });
    std::vector<int> order(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
        order[i] = entries[i].index;
    return order;
}

std::string_view SummaryTable::field(int index, int which) const
{
    const Record &record = m_records[std::size_t(index)];
    std::size_t offset = record.offset;
    for (int i = 0; i < which; ++i)
        offset += record.length[i];
    return std::string_view(m_text.data() + offset, record.length[which]);
}

QString SummaryTable::key(int index) const
{
    return toQString(keyBytes(index));
}

QString SummaryTable::category(int index) const
{
    return toQString(categoryBytes(index));
}

QString SummaryTable::target(int index) const
{
    return toQString(targetBytes(index));
}

QString SummaryTable::updatedAt(int index) const
{
    return toQString(updatedAtBytes(index));
}

QString SummaryTable::typeName(int index) const
{
    return typeName(type(index));
}

void SummaryTable::setModified(int index, bool modified)
{
    std::uint8_t &flags = m_records[std::size_t(index)].flags;
    flags = std::uint8_t(modified ? (flags | ModifiedFlag) : (flags & ~ModifiedFlag));
}

void SummaryTable::setLint(int index, Lint lint)
{
    std::uint8_t &flags = m_records[std::size_t(index)].flags;
    flags = std::uint8_t((flags & ~LintMask) | (std::uint8_t(lint) << LintShift));
}

std::vector<char> SummaryTable::rowsContaining(std::string_view needle) const
{
    std::vector<char> hits(m_records.size(), needle.empty() ? 1 : 0);
    if (needle.empty() || m_records.empty())
        return hits;
    if (!m_foldedOrderValid) {
        m_foldedOrder.resize(m_records.size());
        for (std::size_t i = 0; i < m_records.size(); ++i)
            m_foldedOrder[i] = int(i);
        std::sort(m_foldedOrder.begin(), m_foldedOrder.end(), [this](int a, int b) {
            return m_records[std::size_t(a)].foldedOffset < m_records[std::size_t(b)].foldedOffset;
        });
        m_foldedOrderValid = true;
    }
    // Text an edit left behind lies in no row's span, and is passed over.
    const auto rowAt = [this](std::size_t walk) { return std::size_t(m_foldedOrder[walk]); };
    PackedTextSearch::forEachHit(
        std::string_view(m_folded), needle, m_foldedOrder.size(),
        [&](std::size_t walk) {
            const Record &record = m_records[rowAt(walk)];
            const std::size_t end =
                std::size_t(record.foldedOffset) + record.length[0] + record.length[1] + record.length[2] + 3;
            return PackedTextSearch::Span{record.foldedOffset, end, end};
        },
        [&](std::size_t walk) { hits[rowAt(walk)] = 1; });
    return hits;
}

SummaryTable::Type SummaryTable::typeFromBytes(std::string_view name)
{
    if (name == "fn")
        return Type::Fn;
    if (name == "http")
        return Type::Http;
    if (name == "agent")
        return Type::Agent;
    if (name == "flow")
        return Type::Flow;
    return Type::Unknown;
}

SummaryTable::Type SummaryTable::typeFromName(const QString &name)
{
    const QByteArray utf8 = name.toUtf8();
    return typeFromBytes(viewOf(utf8));
}

QString SummaryTable::typeName(Type type)
{
    switch (type) {
    case Type::Fn:
        return QStringLiteral("fn");
    case Type::Http:
        return QStringLiteral("http");
    case Type::Agent:
        return QStringLiteral("agent");
    case Type::Flow:
        return QStringLiteral("flow");
    case Type::Unknown:
        break;
    }
    return QStringLiteral("?");
}

std::string SummaryTable::foldAscii(QStringView text)
{
    const QByteArray bytes = text.toUtf8();
    std::string folded(bytes.constData(), std::size_t(bytes.size()));
    std::transform(folded.begin(), folded.end(), folded.begin(), foldByte);
    return folded;
}
