#include "dispatch/lint/rules/keyrules.h"

#include <algorithm>

namespace {

bool isKeyChar(QChar c)
{
    return (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
           || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_');
}

QList<LintHit> keyFormat(const LintContext &context)
{
    const QString &key = context.row.key;
    const bool ok = key.size() >= 2 && key.size() <= 64 && key.front() >= QLatin1Char('A')
                    && key.front() <= QLatin1Char('Z') && std::all_of(key.cbegin(), key.cend(), isKeyChar);
    if (ok)
        return {};
    return {{QStringLiteral("Rename the key to 2–64 characters of A–Z, 0–9 and _, starting with a letter "
                            "(e.g. %1).")
                 .arg(key.toUpper()
                          .replace(QLatin1Char('-'), QLatin1Char('_'))
                          .replace(QLatin1Char(' '), QLatin1Char('_')))}};
}

// Rows are listed, filtered and granted to tokens by category; a row without one is only
// reachable by its key.
QList<LintHit> category(const LintContext &context)
{
    if (!context.row.category.trimmed().isEmpty())
        return {};
    return {
        {QStringLiteral("Set a category (e.g. tools, messaging) so the row can be filtered and scoped.")}};
}

} // namespace

namespace KeyRules {

void add(QList<LintRule> &rules)
{
    rules.append({{QStringLiteral("H001"), QStringLiteral("key_format"), QStringLiteral("error"),
                   QStringLiteral("key"), QStringLiteral("key matches ^[A-Z][A-Z0-9_]{1,63}$")},
                  keyFormat});
    rules.append({{QStringLiteral("H002"), QStringLiteral("category_set"), QStringLiteral("warning"),
                   QStringLiteral("category"), QStringLiteral("the row has a category")},
                  category});
}

} // namespace KeyRules
