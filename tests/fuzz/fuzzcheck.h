#pragma once

#include <QByteArray>
#include <QString>

#include <cstdio>
#include <cstdlib>

// A property a fuzz target asserts about its parser's answer. A broken one aborts, which
// libFuzzer reports as a crash and saves the input that caused it; the message says which
// property broke, so the artifact explains itself when replayed.
[[noreturn]] inline void fuzzFail(const char *file, int line, const char *condition, const QString &detail)
{
    std::fprintf(stderr, "%s:%d: fuzz property broken: %s\n  %s\n", file, line, condition,
                 detail.toUtf8().constData());
    std::abort();
}

#define FUZZ_CHECK(condition, detail)                                                                        \
    do {                                                                                                     \
        if (!(condition))                                                                                    \
            fuzzFail(__FILE__, __LINE__, #condition, (detail));                                              \
    } while (false)

// Fuzz input as text: UTF-8 decoded the way the application reads a row or a request body,
// so invalid sequences arrive as U+FFFD just as they would in production.
inline QString fuzzText(const unsigned char *data, size_t size)
{
    return QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
}
