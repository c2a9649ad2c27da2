#include "dispatch/lint/rules/authrules.h"

#include "dispatch/row/authspec.h"

#include <QHash>

#include <algorithm>
#include <array>

#include <cmath>

namespace {

// Random keys are long and mix letters and digits near-uniformly; words, keys and hex
// digests (at most 4 bits a character) stay below this.
constexpr int MinSecretLength = 32;
constexpr double MinSecretEntropy = 4.2;
constexpr int MinBearerTokenLength = 16;
// Shorter than any known prefix plus its 12 characters, a bearer token or a random key.
constexpr int MinSuspectLength = 15;

// URLs split into their path segments and query values here, so a long path is never
// mistaken for one random token.
bool isTokenChar(QChar c)
{
    // Letters, digits, '_', '-' and '+'; a table for ASCII keeps the scan free of branches.
    static constexpr std::array<bool, 128> ascii = [] {
        std::array<bool, 128> table{};
        for (char16_t c = 0; c < 128; ++c)
            table[c] = QChar::isLetterOrNumber(c) || c == u'_' || c == u'-' || c == u'+';
        return table;
    }();
    return c.unicode() < 128 ? ascii[c.unicode()] : c.isLetterOrNumber();
}

double entropy(QStringView token)
{
    QHash<QChar, int> counts;
    for (QChar c : token)
        ++counts[c];
    double bits = 0;
    for (int count : std::as_const(counts)) {
        const double p = double(count) / double(token.size());
        bits -= p * std::log2(p);
    }
    return bits;
}

bool hasKnownPrefix(QStringView token)
{
    static constexpr QLatin1String prefixes[] = {
        QLatin1String("sk-"),         QLatin1String("xai-"), QLatin1String("ghp_"),  QLatin1String("gho_"),
        QLatin1String("github_pat_"), QLatin1String("AKIA"), QLatin1String("xoxb-"), QLatin1String("AIza")};
    return std::any_of(std::begin(prefixes), std::end(prefixes), [token](QLatin1String prefix) {
        return token.size() >= prefix.size() + 12 && token.startsWith(prefix);
    });
}

bool looksRandom(QStringView token)
{
    if (token.size() < MinSecretLength)
        return false;
    const bool digit = std::any_of(token.cbegin(), token.cend(), [](QChar c) { return c.isDigit(); });
    const bool letter = std::any_of(token.cbegin(), token.cend(), [](QChar c) { return c.isLetter(); });
    return digit && letter && entropy(token) >= MinSecretEntropy;
}

bool isBearer(QStringView token)
{
    return token.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) == 0;
}

// The token that ends where `token` begins, skipping what separates them (empty if none).
QStringView tokenBefore(QStringView text, qsizetype tokenStart)
{
    qsizetype end = tokenStart;
    while (end > 0 && !isTokenChar(text[end - 1]))
        --end;
    qsizetype start = end;
    while (start > 0 && isTokenChar(text[start - 1]))
        --start;
    return text.mid(start, end - start);
}

bool isSecretToken(QStringView text, qsizetype start, qsizetype length)
{
    const QStringView token = text.mid(start, length);
    // "Bearer <token>" written out: the header value itself, not the bearer:NAME form.
    if (length >= MinBearerTokenLength && isBearer(tokenBefore(text, start)))
        return true;
    return hasKnownPrefix(token) || looksRandom(token);
}

// Tokens are runs of token characters. This runs over every field of every row, so it
// only measures runs and looks closer at the rare one long enough to hold a secret.
bool holdsSecret(QStringView text)
{
    qsizetype run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const qsizetype inside = isTokenChar(text[i]) ? 1 : 0;
        // One rarely taken branch, and `run` kept by arithmetic: nothing in the loop flips
        // at every word boundary.
        if (((run >= MinSuspectLength) & (inside == 0)) && isSecretToken(text, i - run, run))
            return true;
        run = (run + 1) * inside;
    }
    return run >= MinSuspectLength && isSecretToken(text, text.size() - run, run);
}

QList<LintHit> authForm(const LintContext &context)
{
    const QString auth = context.row.auth.trimmed();
    if (auth.isEmpty() || AuthSpec::parse(auth))
        return {};
    return {
        {QStringLiteral("Write auth as bearer:NAME, basic:NAME, query:NAME or query:param=NAME, where NAME "
                        "(A–Z, 0–9, _) names a secret held in the environment or keychain.")}};
}

QList<LintHit> secretLiteral(const LintContext &context)
{
    const Row &row = context.row;
    const std::pair<const char *, const QString *> fields[] = {
        {"target", &row.target}, {"auth", &row.auth}, {"content", &row.content}, {"examples", &row.examples}};
    QList<LintHit> hits;
    for (const auto &[field, text] : fields) {
        if (holdsSecret(*text))
            hits.append(
                {QStringLiteral("%1 holds what looks like a credential; remove it, store it as a secret "
                                "and name it in auth (bearer:NAME).")
                     .arg(QLatin1String(field)),
                 QLatin1String(field)});
    }
    return hits;
}

} // namespace

namespace AuthRules {

void add(QList<LintRule> &rules)
{
    rules.append({{QStringLiteral("H030"), QStringLiteral("auth_form"), QStringLiteral("error"),
                   QStringLiteral("auth"),
                   QStringLiteral("auth is empty or bearer:NAME, basic:NAME, query:NAME, query:param=NAME")},
                  authForm});
    rules.append({{QStringLiteral("H031"), QStringLiteral("secret_literal"), QStringLiteral("error"),
                   QStringLiteral("content"),
                   QStringLiteral("no credential-looking value in target, auth, content or examples")},
                  secretLiteral});
}

} // namespace AuthRules
