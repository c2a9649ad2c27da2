#include "dispatch/row/linediff.h"

#include <QStringList>

#include <vector>

namespace {

// A longest-common-subsequence table costs before × after cells; past this many the
// changed stretch is shown as removed-then-added, which is still correct, only coarser.
constexpr qsizetype kMaxCells = 1 << 20;

QStringList splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    return text.split(u'\n');
}

} // namespace

QList<LineDiff::Line> LineDiff::compare(const QString &before, const QString &after)
{
    const QStringList a = splitLines(before);
    const QStringList b = splitLines(after);
    // Edits touch a few lines of a long text: the common ends need no table.
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.at(prefix) == b.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a.at(a.size() - 1 - suffix) == b.at(b.size() - 1 - suffix))
        ++suffix;

    QList<Line> lines;
    for (qsizetype i = 0; i < prefix; ++i)
        lines.append({Kind::Same, a.at(i)});
    compareMiddle(a.mid(prefix, a.size() - prefix - suffix), b.mid(prefix, b.size() - prefix - suffix),
                  &lines);
    for (qsizetype i = a.size() - suffix; i < a.size(); ++i)
        lines.append({Kind::Same, a.at(i)});
    return lines;
}

void LineDiff::compareMiddle(const QStringList &before, const QStringList &after, QList<Line> *out)
{
    const qsizetype n = before.size();
    const qsizetype m = after.size();
    if (n == 0 || m == 0 || (n + 1) * (m + 1) > kMaxCells) {
        for (const QString &line : before)
            out->append({Kind::Removed, line});
        for (const QString &line : after)
            out->append({Kind::Added, line});
        return;
    }
    // common[i][j]: the longest common subsequence of before[i..] and after[j..].
    std::vector<int> common(std::size_t((n + 1) * (m + 1)), 0);
    auto at = [m, &common](qsizetype i, qsizetype j) -> int & {
        return common[std::size_t(i * (m + 1) + j)];
    };
    for (qsizetype i = n - 1; i >= 0; --i) {
        for (qsizetype j = m - 1; j >= 0; --j)
            at(i, j) =
                before.at(i) == after.at(j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
    qsizetype i = 0;
    qsizetype j = 0;
    QList<Line> added;
    auto flushAdded = [&] {
        out->append(added);
        added.clear();
    };
    while (i < n && j < m) {
        if (before.at(i) == after.at(j)) {
            flushAdded();
            out->append({Kind::Same, before.at(i)});
            ++i;
            ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            out->append({Kind::Removed, before.at(i++)});
        } else {
            added.append({Kind::Added, after.at(j++)});
        }
    }
    for (; i < n; ++i)
        out->append({Kind::Removed, before.at(i)});
    flushAdded();
    for (; j < m; ++j)
        out->append({Kind::Added, after.at(j)});
}
