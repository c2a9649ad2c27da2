#include "dispatch/lint/rules/templaterules.h"

#include "dispatch/row/argumentspec.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace {

int highestIndex(const QList<TemplatePlaceholder> &placeholders)
{
    int highest = 0;
    for (const TemplatePlaceholder &p : placeholders)
        highest = std::max(highest, p.index);
    return highest;
}

bool takesRest(const QList<TemplatePlaceholder> &placeholders)
{
    return std::any_of(placeholders.cbegin(), placeholders.cend(), [](const TemplatePlaceholder &p) {
        return p.kind == TemplatePlaceholder::Kind::ArgRest;
    });
}

QList<LintHit> pipeRestLast(const LintContext &context)
{
    const QList<TemplatePlaceholder> &placeholders = context.argumentPlaceholders;
    const int highest = highestIndex(placeholders);
    for (const TemplatePlaceholder &p : placeholders) {
        if (p.kind == TemplatePlaceholder::Kind::ArgRest && p.index < highest)
            return {{QStringLiteral("$%1+ takes the rest of the body, pipes included, so $%2 can never be "
                                    "filled; make the rest argument the last one ($%2+) or drop the +.")
                         .arg(p.index)
                         .arg(highest)}};
    }
    return {};
}

QList<LintHit> argsDeclared(const LintContext &context)
{
    bool usable = false;
    const ArgumentSpec declared = ArgumentSpec::fromArgsLine(context.docs.args(), &usable);
    if (!usable)
        return {};
    const int highest = highestIndex(context.argumentPlaceholders);
    if (highest <= declared.count())
        return {};
    return {{QStringLiteral("The template uses $%1 but ARGS declares %2; list every argument in # ARGS: "
                            "($1=name | $2=name …).")
                 .arg(highest)
                 .arg(declared.count())}};
}

QStringList exampleBodies(const LintContext &context)
{
    QStringList bodies;
    for (const DocLine &line : context.docs.tagged(DocLine::Tag::Example)) {
        if (const std::optional<DocExample> example = DocLines::parseExample(line.text))
            bodies.append(example->body);
    }
    const QJsonArray items = context.examplesJson.array();
    for (const QJsonValue item : items) {
        if (item.isString())
            bodies.append(item.toString());
    }
    return bodies;
}

QList<LintHit> exampleArity(const LintContext &context)
{
    const QList<TemplatePlaceholder> &placeholders = context.argumentPlaceholders;
    const int highest = highestIndex(placeholders);
    if (highest == 0)
        return {};
    const bool rest = takesRest(placeholders);
    QList<LintHit> hits;
    for (const QString &body : exampleBodies(context)) {
        const qsizetype count = body.isEmpty() ? 0 : body.count(QLatin1Char('|')) + 1;
        if (count == highest || (rest && count > highest))
            continue;
        hits.append({QStringLiteral("Example \"%1\" has %2 argument(s); the template uses %3. Separate them "
                                    "with '|'.")
                         .arg(body.left(60))
                         .arg(count)
                         .arg(highest)});
    }
    return hits;
}

} // namespace

namespace TemplateRules {

// An agent's body is its user message, never substituted, so an agent uses none; an fn's
// empty payload (implicitly ["$1"]) uses none either, since a builtin like now ignores
// what it is not asked for.
QList<TemplatePlaceholder> argumentPlaceholders(const Row &row, const DocLines &docs)
{
    QList<TemplatePlaceholder> all;
    if (row.type == QLatin1String("agent"))
        return all;
    if (row.type == QLatin1String("http"))
        all = TemplateSubstitution::placeholders(row.target);
    all += TemplateSubstitution::placeholders(docs.payload());
    all.erase(std::remove_if(all.begin(), all.end(),
                             [](const TemplatePlaceholder &p) {
                                 return p.kind != TemplatePlaceholder::Kind::Arg
                                        && p.kind != TemplatePlaceholder::Kind::ArgRest;
                             }),
              all.end());
    return all;
}

void add(QList<LintRule> &rules)
{
    rules.append(
        {{QStringLiteral("H040"), QStringLiteral("pipe_rest_last"), QStringLiteral("error"),
          QStringLiteral("content"), QStringLiteral("$N+ only for the last argument the template uses")},
         pipeRestLast});
    rules.append(
        {{QStringLiteral("H041"), QStringLiteral("args_declared"), QStringLiteral("warning"),
          QStringLiteral("content"), QStringLiteral("the template uses no $N beyond what ARGS declares")},
         argsDeclared});
    rules.append({{QStringLiteral("H052"), QStringLiteral("example_arity"), QStringLiteral("warning"),
                   QStringLiteral("examples"),
                   QStringLiteral("each example has the argument count the template uses")},
                  exampleArity});
}

} // namespace TemplateRules
