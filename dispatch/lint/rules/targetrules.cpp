#include "dispatch/lint/rules/targetrules.h"

#include "dispatch/runners/builtins/builtinregistry.h"

#include <algorithm>

namespace {

const QStringList &httpMethods()
{
    static const QStringList methods{QStringLiteral("GET"),    QStringLiteral("POST"),
                                     QStringLiteral("PUT"),    QStringLiteral("PATCH"),
                                     QStringLiteral("DELETE"), QStringLiteral("HEAD")};
    return methods;
}

// The host may itself be a placeholder ("https://$1/…"), so only its presence is checked.
bool isAbsoluteHttpUrl(const QString &url)
{
    QStringView rest;
    if (url.startsWith(QLatin1String("https://")))
        rest = QStringView(url).mid(8);
    else if (url.startsWith(QLatin1String("http://")))
        rest = QStringView(url).mid(7);
    else
        return false;
    const bool blank = std::any_of(url.cbegin(), url.cend(), [](QChar c) { return c.isSpace(); });
    return !blank && !rest.isEmpty() && rest.front() != QLatin1Char('/') && rest.front() != QLatin1Char('?');
}

QList<LintHit> httpTarget(const LintContext &context)
{
    if (context.row.type != QLatin1String("http"))
        return {};
    const QString target = context.row.target.trimmed();
    const qsizetype space = target.indexOf(QLatin1Char(' '));
    const QString method = target.left(space);
    if (space < 0 || !httpMethods().contains(method))
        return {
            {QStringLiteral("Start the target with a method (%1), a space, then the URL: \"GET https://…\".")
                 .arg(httpMethods().join(QStringLiteral(", ")))}};
    if (!isAbsoluteHttpUrl(target.mid(space + 1).trimmed()))
        return {{QStringLiteral("Give an absolute http:// or https:// URL with a host after \"%1 \", "
                                "without spaces (encode them as %20).")
                     .arg(method)}};
    return {};
}

// A placeholder in the URL's authority (host, port or user info) lets whoever calls the row
// choose where the request, and the row's credential, goes: the caller's text should only
// ever land in the path, query or body.
QList<LintHit> urlHostTemplate(const LintContext &context)
{
    if (context.row.type != QLatin1String("http"))
        return {};
    const QString target = context.row.target.trimmed();
    const QString url = target.mid(target.indexOf(QLatin1Char(' ')) + 1).trimmed();
    const qsizetype scheme = url.indexOf(QLatin1String("://"));
    if (scheme < 0)
        return {};
    const qsizetype start = scheme + 3;
    qsizetype end = start;
    while (end < url.size() && url[end] != QLatin1Char('/') && url[end] != QLatin1Char('?')
           && url[end] != QLatin1Char('#'))
        ++end;
    const QStringView authority = QStringView(url).mid(start, end - start);
    if (TemplateSubstitution::placeholders(authority).isEmpty())
        return {};
    return {{QStringLiteral(
                 "Write the host as text: \"%1\" takes it from the caller's arguments, so a caller chooses "
                 "where the request and its credential go. Put arguments in the path or query.")
                 .arg(authority)}};
}

QList<LintHit> agentModel(const LintContext &context)
{
    if (context.row.type != QLatin1String("agent"))
        return {};
    const QString target = context.row.target.trimmed();
    const bool blank = std::any_of(target.cbegin(), target.cend(), [](QChar c) { return c.isSpace(); });
    if (!target.isEmpty() && !blank)
        return {};
    return {{QStringLiteral("Name the model in target, one word such as grok-4.3.")}};
}

QList<LintHit> fnBuiltin(const LintContext &context)
{
    if (context.row.type != QLatin1String("fn") || !context.localEngine)
        return {};
    const QString target = context.row.target.trimmed();
    if (BuiltinRegistry::standard().find(target))
        return {};
    return {{QStringLiteral("\"%1\" is no builtin; use one of: %2.")
                 .arg(target, BuiltinRegistry::standard().names().join(QStringLiteral(", ")))}};
}

LintRule rule(const char *code, const char *name, const char *summary, LintRule::Check check)
{
    return {{QLatin1String(code), QLatin1String(name), QStringLiteral("error"), QStringLiteral("target"),
             QString::fromUtf8(summary)},
            check};
}

} // namespace

namespace TargetRules {

void add(QList<LintRule> &rules)
{
    rules.append(rule("H020", "http_target", "http target is METHOD URL, known method, absolute http(s) URL",
                      httpTarget));
    rules.append(rule("H021", "agent_model", "agent target names a model", agentModel));
    rules.append(
        rule("H026", "url_host_template",
             "no $N, $NAME or $PREV in an http target's host, port or user info (the caller would choose "
             "the host)",
             urlHostTemplate));
    rules.append(
        rule("H022", "fn_builtin", "fn target names a known builtin (local engine only)", fnBuiltin));
}

} // namespace TargetRules
