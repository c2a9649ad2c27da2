#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

// The text of many records laid end to end in one buffer, searched in one memmem pass
// instead of once per record: SummaryTable's folded row text and ReceiptSummaryTable's ids.
namespace PackedTextSearch {

struct Span
{
    std::size_t start; // where the record's text begins in the buffer
    std::size_t searchedEnd; // one past the part a needle must lie wholly inside
    std::size_t end; // where the search goes on after a hit: one hit per record
};

// Calls hit(i) once for each record i whose searched part holds `needle`. spanOf(i), for
// i from 0 to count - 1, must start no earlier than spanOf(i - 1): matches come in
// increasing offset, so the record owning each is found by walking forward. A match that
// is in no record's searched part (text between records) is passed over.
template<typename SpanOf, typename Hit>
void forEachHit(std::string_view text, std::string_view needle, std::size_t count, SpanOf spanOf, Hit hit)
{
    std::size_t position = 0;
    std::size_t walk = 0;
    while (position < text.size()) {
        const void *found =
            memmem(text.data() + position, text.size() - position, needle.data(), needle.size());
        if (!found)
            break;
        const std::size_t offset = std::size_t(static_cast<const char *>(found) - text.data());
        while (walk + 1 < count && spanOf(walk + 1).start <= offset)
            ++walk;
        const Span span = spanOf(walk);
        if (offset >= span.start && offset + needle.size() <= span.searchedEnd) {
            hit(walk);
            position = span.end;
        } else {
            position = offset + 1;
        }
    }
}

} // namespace PackedTextSearch
