#include "dispatch/flows/flowparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <QJsonDocument>

// FlowParser::parse over any text: an error or a plan, never both; an error's position
// points into the text and agrees with its own line and column; a plan's steps are
// well-formed (keys that are keys, bindings that are names, calls in text order); and the
// same text always gives the same answer.
namespace {

bool isKeyText(const QString &key)
{
    if (key.isEmpty() || key.front() < u'A' || key.front() > u'Z')
        return false;
    for (const QChar c : key) {
        if (!((c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'))
            return false;
    }
    return true;
}

void checkPosition(const QString &content, const TextPosition &position, const char *what)
{
    FUZZ_CHECK(position.offset >= 0 && position.offset <= content.size(),
               QStringLiteral("%1 offset %2 outside 0..%3")
                   .arg(QLatin1String(what))
                   .arg(position.offset)
                   .arg(content.size()));
    const TextPosition expected = TextPosition::at(content, position.offset);
    FUZZ_CHECK(expected.line == position.line && expected.column == position.column,
               QStringLiteral("%1 at offset %2 says line %3 column %4, the text says line %5 column %6")
                   .arg(QLatin1String(what))
                   .arg(position.offset)
                   .arg(position.line)
                   .arg(position.column)
                   .arg(expected.line)
                   .arg(expected.column));
}

void checkPlan(const QString &content, const FlowPlan &plan)
{
    FUZZ_CHECK(!plan.steps.isEmpty(), QStringLiteral("a plan without steps and without an error"));
    int lastOffset = -1;
    for (const FlowStep &step : plan.steps) {
        FUZZ_CHECK(!step.calls.isEmpty(), QStringLiteral("a step without calls"));
        FUZZ_CHECK(step.fanOut || step.calls.size() == 1, QStringLiteral("a call step with several calls"));
        FUZZ_CHECK(step.binding.isEmpty() || FlowParser::isBindingName(step.binding), step.binding);
        checkPosition(content, step.position, "step");
        for (const FlowCall &call : step.calls) {
            FUZZ_CHECK(isKeyText(call.key), call.key);
            FUZZ_CHECK(call.bodyWritten || call.body == QStringLiteral("$PREV"), call.body);
            FUZZ_CHECK(call.binding.isEmpty() || FlowParser::isBindingName(call.binding), call.binding);
            FUZZ_CHECK(step.fanOut || call.binding.isEmpty(),
                       QStringLiteral("a call step's binding on its call"));
            checkPosition(content, call.position, "call");
            FUZZ_CHECK(call.position.offset > lastOffset, QStringLiteral("calls out of text order"));
            FUZZ_CHECK(content.indexOf(call.key, call.position.offset) >= 0,
                       QStringLiteral("key %1 not in the text after its position").arg(call.key));
            lastOffset = call.position.offset;
        }
    }
    FUZZ_CHECK(plan.callCount() >= plan.steps.size(), QStringLiteral("fewer calls than steps"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const QString content = fuzzText(data, size);
    const FlowParseResult result = FlowParser::parse(content);
    if (result.ok()) {
        checkPlan(content, result.plan);
    } else {
        FUZZ_CHECK(result.plan.steps.isEmpty(), QStringLiteral("an error with a plan"));
        FUZZ_CHECK(!result.error->reason.isEmpty(), QStringLiteral("an error without a reason"));
        checkPosition(content, result.error->position, "error");
    }
    const FlowParseResult again = FlowParser::parse(content);
    const QByteArray first =
        QJsonDocument(result.ok() ? result.plan.toJson() : result.error->toJson()).toJson();
    const QByteArray second =
        QJsonDocument(again.ok() ? again.plan.toJson() : again.error->toJson()).toJson();
    FUZZ_CHECK(first == second, QStringLiteral("two parses of one text disagree"));
    return 0;
}
