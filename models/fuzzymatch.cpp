#include "models/fuzzymatch.h"

#include <algorithm>

namespace {

constexpr int matchPoints = 1;
constexpr int runPoints = 5;
constexpr int wordStartPoints = 8;
constexpr int prefixPoints = 20;
constexpr int wholePoints = 10;
constexpr int maxGapPenalty = 3;

// Case folding with an ASCII fast path: keys are ASCII, and this runs for every character
// of 100,000 keys per keystroke.
char16_t folded(QChar c)
{
    const char16_t u = c.unicode();
    if (u < 128)
        return u >= u'A' && u <= u'Z' ? char16_t(u + 32) : u;
    return c.toCaseFolded().unicode();
}

bool isWordStart(QStringView text, qsizetype at)
{
    if (at == 0)
        return true;
    const QChar before = text[at - 1];
    if (before == u'_' || before == u' ' || before == u'-' || before == u'.' || before == u'/')
        return true;
    return before.isLower() && text[at].isUpper();
}

bool isSubsequence(QStringView query, QStringView text)
{
    qsizetype at = 0;
    for (const QChar wanted : query) {
        const char16_t want = folded(wanted);
        while (at < text.size() && folded(text[at]) != want)
            ++at;
        if (at == text.size())
            return false;
        ++at;
    }
    return true;
}

} // namespace

int FuzzyMatch::score(QStringView query, QStringView text)
{
    if (query.isEmpty())
        return 0;
    // Most names do not match at all: say so in one cheap pass.
    if (!isSubsequence(query, text))
        return noMatch;
    int total = 0;
    qsizetype from = 0;
    qsizetype previous = -2;
    for (qsizetype index = 0; index < query.size(); ++index) {
        const char16_t want = folded(query[index]);
        qsizetype at = from;
        // Prefer the next word start holding the character over an earlier mid-word one,
        // unless the earlier one continues a run.
        qsizetype first = -1;
        qsizetype wordStart = -1;
        for (; at < text.size(); ++at) {
            if (folded(text[at]) != want)
                continue;
            if (first < 0)
                first = at;
            if (at == previous + 1 || isWordStart(text, at)) {
                wordStart = at;
                break;
            }
        }
        if (first < 0)
            return noMatch;
        // A later word start only where the rest of the query still fits after it.
        const bool restFits =
            wordStart >= 0
            && (wordStart == first || isSubsequence(query.sliced(index + 1), text.sliced(wordStart + 1)));
        const qsizetype chosen = (first == previous + 1 || !restFits) ? first : wordStart;
        total += matchPoints;
        if (chosen == previous + 1)
            total += runPoints;
        else if (isWordStart(text, chosen))
            total += wordStartPoints;
        if (previous >= 0 && chosen > previous + 1)
            total -= std::min<qsizetype>(chosen - previous - 1, maxGapPenalty);
        previous = chosen;
        from = chosen + 1;
    }
    if (text.startsWith(query, Qt::CaseInsensitive))
        total += query.size() == text.size() ? prefixPoints + wholePoints : prefixPoints;
    return std::max(total, 1);
}
