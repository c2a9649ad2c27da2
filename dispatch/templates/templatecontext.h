#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

// What a template's placeholders can refer to: the invocation's args, the previous flow
// step's output and the flow's bindings. Outside a flow there is no $PREV and no binding,
// and both stay in the text as written.
struct TemplateContext
{
    QStringList args; // $1, $2, …: the body split on '|'
    std::optional<QString> prev; // $PREV
    QHash<QString, QString> bindings; // $NAME, from a flow step's `=> NAME`

    // The one call contract: pieces of the body between pipes, so an empty body is one
    // empty arg and "a||b" is three.
    static QStringList splitBody(const QString &body) { return body.split(u'|'); }
};
