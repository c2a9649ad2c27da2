#include "dispatch/lint/rules/docrules.h"

namespace {

// A model reads the description in every listing; past this it crowds out other rows.
constexpr int MaxDescriptionLength = 200;

bool hasTag(const LintContext &context, DocLine::Tag tag)
{
    const std::optional<DocLine> line = context.docs.first(tag);
    return line && !line->text.trimmed().isEmpty();
}

QList<LintHit> what(const LintContext &context)
{
    if (!context.docs.description().trimmed().isEmpty())
        return {};
    return {{QStringLiteral("Add a first line \"# WHAT: <what it does, in one sentence>\" to content.")}};
}

QList<LintHit> whenToUse(const LintContext &context)
{
    if (hasTag(context, DocLine::Tag::WhenToUse))
        return {};
    return {{QStringLiteral("Add \"# WHEN_TO_USE: <the situation a caller is in>\" to content.")}};
}

QList<LintHit> args(const LintContext &context)
{
    if (hasTag(context, DocLine::Tag::Args))
        return {};
    return {{QStringLiteral("Add \"# ARGS: $1=name | $2=name\" (or \"# ARGS: none\") to content.")}};
}

QList<LintHit> example(const LintContext &context)
{
    if (!context.docs.tagged(DocLine::Tag::Example).isEmpty())
        return {};
    return {{QStringLiteral("Add \"# EX: [%1]<a working body>[/%1]\" to content.").arg(context.row.key)}};
}

QList<LintHit> exampleKey(const LintContext &context)
{
    QList<LintHit> hits;
    for (const DocLine &line : context.docs.tagged(DocLine::Tag::Example)) {
        const std::optional<DocExample> parsed = DocLines::parseExample(line.text);
        if (parsed && parsed->key == context.row.key)
            continue;
        const QString found =
            parsed ? QStringLiteral("[%1]").arg(parsed->key) : QStringLiteral("no [KEY]…[/KEY]");
        hits.append({QStringLiteral("Line %1: the example has %2; write it as [%3]body[/%3].")
                         .arg(line.line)
                         .arg(found, context.row.key)});
    }
    return hits;
}

QList<LintHit> output(const LintContext &context)
{
    const QString &type = context.row.type;
    if (type != QLatin1String("fn") && type != QLatin1String("http"))
        return {};
    if (hasTag(context, DocLine::Tag::Output))
        return {};
    return {{QStringLiteral("Add \"# OUTPUT: <what the output string holds>\" to content.")}};
}

QList<LintHit> whatLength(const LintContext &context)
{
    const qsizetype length = context.docs.description().trimmed().size();
    if (length <= MaxDescriptionLength)
        return {};
    return {{QStringLiteral("Shorten the description to %1 characters or fewer (it has %2); move detail to "
                            "WHEN_TO_USE or OUTPUT.")
                 .arg(MaxDescriptionLength)
                 .arg(length)}};
}

LintRule rule(const char *code, const char *name, const char *severity, const char *summary,
              LintRule::Check check)
{
    return {{QLatin1String(code), QLatin1String(name), QLatin1String(severity), QStringLiteral("content"),
             QString::fromUtf8(summary)},
            check};
}

} // namespace

namespace DocRules {

void add(QList<LintRule> &rules)
{
    rules.append(
        rule("H010", "doc_what", "error", "a description (WHAT line or untagged first doc line)", what));
    rules.append(rule("H011", "doc_when", "error", "a # WHEN_TO_USE: line", whenToUse));
    rules.append(rule("H012", "doc_args", "error", "a # ARGS: line", args));
    rules.append(rule("H013", "doc_example", "error", "a # EX: line", example));
    rules.append(
        rule("H014", "example_key", "error", "every EX is [KEY]…[/KEY] with this row's key", exampleKey));
    rules.append(rule("H015", "doc_output", "warning", "a # OUTPUT: line (fn, http)", output));
    rules.append(
        rule("H016", "doc_what_length", "warning", "the description is at most 200 characters", whatLength));
}

} // namespace DocRules
