// libFuzzer target: TemplateSubstitution::apply over any template and args in each mode,
// asserting the byte cap holds: an ok result is never more than the cap's UTF-8 bytes,
// and a result over it is refused by name with no text kept.
//
// Input: a mode byte, two little-endian cap bytes (the cap is 0..65535 bytes, small so
// the fuzzer reaches it), then UTF-8 text: the template, and after the first NUL the body
// whose '|'-separated pieces are the args ($PREV is the body as well).

#include "dispatch/core/outputlimit.h"
#include "dispatch/templates/templatesubstitution.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const TemplateMode modes[] = {TemplateMode::Url, TemplateMode::Json, TemplateMode::Raw};
    const TemplateMode mode = modes[data[0] % 3];
    const qint64 cap = qint64(data[1]) | (qint64(data[2]) << 8);
    const QByteArray rest(reinterpret_cast<const char *>(data + 3), qsizetype(size - 3));
    const qsizetype nul = rest.indexOf('\0');
    const QString tmpl = QString::fromUtf8(nul < 0 ? rest : rest.left(nul));
    const QString body = nul < 0 ? QString() : QString::fromUtf8(rest.mid(nul + 1));

    TemplateContext context;
    context.args = TemplateContext::splitBody(body);
    context.prev = body;
    context.bindings.insert(QStringLiteral("NAME"), body + body);

    const TemplateResult result = TemplateSubstitution::apply(tmpl, context, mode, cap);
    if (result.error.startsWith(QLatin1String("ERR: output_limit: "))) {
        FUZZ_CHECK(result.text.isEmpty(),
                   QStringLiteral("an over-cap result kept %1 characters").arg(result.text.size()));
        return 0;
    }
    const qint64 bytes = result.text.toUtf8().size();
    FUZZ_CHECK(bytes <= cap, QStringLiteral("%1 bytes under a cap of %2").arg(bytes).arg(cap));
    FUZZ_CHECK(OutputLimit::utf8Size(result.text) == bytes, QStringLiteral("utf8Size disagrees with toUtf8"));
    return 0;
}
