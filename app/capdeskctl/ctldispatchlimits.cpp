#include "app/capdeskctl/ctldispatchlimits.h"

#include <limits>

using namespace Qt::StringLiterals;

QList<QCommandLineOption> CtlDispatchLimits::options()
{
    return {
        QCommandLineOption(u"max-output-bytes"_s, u"the largest output a call may return"_s, u"N"_s),
        QCommandLineOption(u"max-tree-calls"_s, u"the calls one call tree may make"_s, u"N"_s),
        QCommandLineOption(u"max-tree-bytes"_s, u"the output bytes one call tree may produce"_s, u"N"_s),
        QCommandLineOption(u"max-fan-out"_s, u"the branches one fan-out may start"_s, u"N"_s),
        QCommandLineOption(u"call-timeout"_s, u"the time one call tree may take"_s, u"MS"_s),
    };
}

std::optional<DispatchLimits> CtlDispatchLimits::parse(const CtlArguments &args, QString *error)
{
    DispatchLimits limits;
    constexpr qint64 intMax = std::numeric_limits<int>::max();
    constexpr qint64 bytesMax = qint64(1) << 40;
    const auto read = [&](const QString &option, qint64 ceiling, auto *field) {
        if (!args.has(option))
            return true;
        bool ok = false;
        const qint64 value = args.value(option).toLongLong(&ok);
        if (!ok || value < 1 || value > ceiling) {
            *error = u"%1 wants a whole number from 1 to %2"_s.arg(option).arg(ceiling);
            return false;
        }
        *field = static_cast<std::remove_pointer_t<decltype(field)>>(value);
        return true;
    };
    if (!read(u"--max-output-bytes"_s, bytesMax, &limits.maxOutputBytes)
        || !read(u"--max-tree-calls"_s, intMax, &limits.maxTreeCalls)
        || !read(u"--max-tree-bytes"_s, bytesMax, &limits.maxTreeBytes)
        || !read(u"--max-fan-out"_s, intMax, &limits.maxFanOutWidth)
        || !read(u"--call-timeout"_s, intMax, &limits.timeoutMs))
        return std::nullopt;
    return limits;
}
