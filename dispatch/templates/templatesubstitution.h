#pragma once

#include "dispatch/core/dispatchlimits.h"
#include "dispatch/templates/templatecontext.h"

#include <QList>
#include <QString>
#include <QStringView>

// Where substituted values land, which decides how they are escaped (SPEC §2).
enum class TemplateMode {
    Url, // an http row's target URL: percent-encoded as encodeURIComponent does
    Json, // a payload whose first non-blank character is '{' or '[': escaped for its
          // position in the JSON text, and the result must be valid JSON
    Raw, // any other payload and flow step bodies: verbatim
};

// One placeholder as written in a template, for the linter and the editor's highlighter.
struct TemplatePlaceholder
{
    enum class Kind {
        Arg, // $N
        ArgRest, // $N+
        Prev, // $PREV
        Name, // $NAME, a flow binding
    };

    Kind kind = Kind::Arg;
    bool raw = false; // written after `$$`: the value goes in unescaped
    int index = 0; // N of $N and $N+, 1-based; 0 for Prev and Name
    QString name; // NAME of $NAME, "PREV" for $PREV, empty otherwise
    qsizetype start = 0; // offset of the first '$'
    qsizetype length = 0; // of the whole placeholder, "$$" included
};

struct TemplateResult
{
    QString text; // on a JSON error still the substituted text, for shape mode and the editor
    QString error; // "ERR: template: …" or "ERR: output_limit: …"; when set, nothing may be sent
    bool ok() const { return error.isEmpty(); }
};

// subVars: replaces the placeholders of a template, scanned left to right.
//
// - $N (N >= 1) is arg N, empty when fewer args were given. N is the whole run of digits
//   read as a number, so "$12" is arg 12, "$1abc" is arg 1 followed by "abc", "$01" is
//   arg 1, and "$0" (or any run of zeros) is no placeholder and stays as written.
// - $N+ is args N..end joined with '|', empty when there are none.
// - $PREV is ctx.prev, and stays as written when there is none. A binding named PREV
//   never stands in for it.
// - $NAME takes the longest run of [A-Z0-9_] after a letter or '_' ("$PREVIOUS" is the
//   binding PREVIOUS) and stays as written when unbound.
// - $$ before any of these inserts the same value unescaped; a placeholder that stays as
//   written keeps its "$$". Any other '$' is literal text.
//
// The result is at most `maxBytes` UTF-8 bytes: a template and args that would give more
// stop being substituted there (so n×m growth never happens in memory) and fail with
// "ERR: output_limit: …", the text then empty.
class TemplateSubstitution final
{
public:
    static TemplateResult apply(QStringView tmpl, const TemplateContext &ctx, TemplateMode mode,
                                qint64 maxBytes = DispatchLimits{}.maxOutputBytes);
    static QList<TemplatePlaceholder> placeholders(QStringView tmpl);
    // Json when the first non-blank character is '{' or '[', Raw otherwise.
    static TemplateMode modeForPayload(QStringView payload);

    // The Url mode escape: UTF-8 percent-encoding of all but A-Z a-z 0-9 - _ . ! ~ * ' ( ),
    // with upper-case hex. A lone surrogate, which JavaScript would refuse with a URIError,
    // is encoded as U+FFFD.
    static QString encodeUriComponent(QStringView value);
    // The Json mode escape inside a string literal, without the quotes: what
    // JSON.stringify writes between them (\" \\ \b \f \n \r \t, other control characters
    // and lone surrogates as lower-case \u00xx / \udxxx).
    static QString escapeJsonString(QStringView value);
};
