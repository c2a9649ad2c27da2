#include "authrules.h"

#include "authspec.h"

#include <QHash>

#include <algorithm>

#include <cmath>

namespace {

// Random keys are long and mix letters and digits near-uniformly; words, keys and hex
// digests (at most 4 bits a character) stay below this.
constexpr int MinSecretLength = 32;
constexpr double MinSecretEntropy = 4.2;
constexpr int MinBearerTokenLength = 16;

// URLs split into their path segments and query values here, so a long path is never
// mistaken for one random token.
bool isTokenChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('+');
}

QStringList tokensOf(const QString &text)
{
    QStringList tokens;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const bool inside = i < text.size() && isTokenChar(text.at(i));
        if (inside && start < 0)
            start = i;
        else if (!inside && start >= 0) {
            tokens.append(text.mid(start, i - start));
            start = -1;
        }
    }
    return tokens;
}

double entropy(const QString &token)
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

bool hasKnownPrefix(const QString &token)
{
    static const QStringList prefixes{QStringLiteral("sk-"),  QStringLiteral("xai-"), QStringLiteral("ghp_"),
                                      QStringLiteral("gho_"), QStringLiteral("github_pat_"), QStringLiteral("AKIA"),
                                      QStringLiteral("xoxb-"), QStringLiteral("AIza")};
    return std::any_of(prefixes.cbegin(), prefixes.cend(), [&token](const QString &prefix) {
        return token.startsWith(prefix) && token.size() >= prefix.size() + 12;
    });
}

bool looksRandom(const QString &token)
{
    if (token.size() < MinSecretLength)
        return false;
    const bool digit = std::any_of(token.cbegin(), token.cend(), [](QChar c) { return c.isDigit(); });
    const bool letter = std::any_of(token.cbegin(), token.cend(), [](QChar c) { return c.isLetter(); });
    return digit && letter && entropy(token) >= MinSecretEntropy;
}

// "Bearer <token>" written out: the header value itself, not the bearer:NAME form.
bool hasBearerLiteral(const QStringList &tokens)
{
    for (qsizetype i = 0; i + 1 < tokens.size(); ++i) {
        if (tokens.at(i).compare(QLatin1String("Bearer"), Qt::CaseInsensitive) == 0
            && tokens.at(i + 1).size() >= MinBearerTokenLength)
            return true;
    }
    return false;
}

bool holdsSecret(const QString &text)
{
    const QStringList tokens = tokensOf(text);
    return hasBearerLiteral(tokens) || std::any_of(tokens.cbegin(), tokens.cend(), [](const QString &token) {
               return hasKnownPrefix(token) || looksRandom(token);
           });
}

QList<LintHit> authForm(const LintContext &context)
{
    const QString auth = context.row.auth.trimmed();
    if (auth.isEmpty() || AuthSpec::parse(auth))
        return {};
    return {{QStringLiteral("Write auth as bearer:NAME, basic:NAME, query:NAME or query:param=NAME, where NAME "
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
            hits.append({QStringLiteral("%1 holds what looks like a credential; remove it, store it as a secret "
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
