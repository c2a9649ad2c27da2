// Substitutions per second for the templates every call goes through, and doc-line
// parses per second for a typical row. Each case runs for about a second, three times;
// the best run is printed. Usage: bench_templates
#include "dispatch/row/doclines.h"
#include "dispatch/templates/templatesubstitution.h"
#include "tests/bench/benchcommandline.h"
#include "tests/bench/benchmeasures.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

// Keeps the compiler from dropping work whose result is otherwise unused.
volatile qsizetype sink = 0;

// `figure`, when given, names the rate for run_benchmarks.py.
template<typename Work>
void measure(const char *label, Work work, const char *figure = nullptr)
{
    double best = 0;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        qint64 calls = 0;
        qsizetype total = 0;
        // Checking the clock every 1,000 calls keeps its cost out of the numbers.
        while (timer.nsecsElapsed() < 1'000'000'000) {
            for (int i = 0; i < 1000; ++i)
                total += work();
            calls += 1000;
        }
        sink = sink + total;
        best = std::max(best, double(calls) * 1e9 / double(timer.nsecsElapsed()));
    }
    std::printf("%-44s %12.0f /s  %8.1f ns each\n", label, best, 1e9 / best);
    if (figure)
        printFigure(figure, best);
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    if (const auto exit = BenchCommandLine::check(arguments, "bench_templates", 0))
        return *exit;
    const QString url =
        u"https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m"_s;
    const QString urlBody = u"37.77|-122.42"_s;
    const QString json = u"{\"channel\":\"$1\",\"to\":\"$2\",\"text\":\"$3+\"}"_s;
    const QString jsonBody = u"blooio|+15550100|On my way | see you at 6 \"sharp\""_s;
    const QString content = u"# WHAT: Current temperature in Celsius for one latitude and longitude, from "
                            u"the Open-Meteo public API.\n"
                            "# WHEN_TO_USE: a capability needs the live temperature at a coordinate.\n"
                            "# ARGS: $1=latitude | $2=longitude\n"
                            "# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]\n"
                            "# OUTPUT: JSON with current.temperature_2m\n"
                            "{\"lat\":$1,\"lon\":$2}"_s;

    TemplateContext urlContext;
    urlContext.args = TemplateContext::splitBody(urlBody);
    TemplateContext jsonContext;
    jsonContext.args = TemplateContext::splitBody(jsonBody);

    std::printf("%s\n%s\n", qPrintable(TemplateSubstitution::apply(url, urlContext, TemplateMode::Url).text),
                qPrintable(TemplateSubstitution::apply(json, jsonContext, TemplateMode::Json).text));

    measure(
        "url template, args split once",
        [&] { return TemplateSubstitution::apply(url, urlContext, TemplateMode::Url).text.size(); },
        "url_per_s");
    measure("url template, body split per call", [&] {
        TemplateContext ctx;
        ctx.args = TemplateContext::splitBody(urlBody);
        return TemplateSubstitution::apply(url, ctx, TemplateMode::Url).text.size();
    });
    measure("json body template (with validity check)",
            [&] { return TemplateSubstitution::apply(json, jsonContext, TemplateMode::Json).text.size(); });
    measure("placeholders() of the url template",
            [&] { return TemplateSubstitution::placeholders(url).size(); });
    measure("stripDocs, 6-line content", [&] { return DocLines::stripDocs(content).size(); });
    measure("parse (docs + payload), 6-line content",
            [&] { return DocLines::parse(content).lines().size(); });
    measure("stripDocs + parse, 6-line content",
            [&] { return DocLines::stripDocs(content).size() + DocLines::parse(content).lines().size(); });
    return 0;
}
