#include "dispatch/runners/fnrunner.h"
#include "dispatch/templates/templatecontext.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <optional>

using namespace Qt::StringLiterals;

// SPEC §3 fn runner and §5 shape mode, through FnRunner with real rows: the payload's
// JSON array template becomes the builtin's args; done comes back on the calling thread.
class TestFnRunner : public QObject
{
    Q_OBJECT

private slots:
    void output_data();
    void output();
    void shape_data();
    void shape();
    void shapeDoesNotRunTheBuiltin();
    void doneArrivesLaterOnTheCallingThread();
    void doneArrivesOnAWorkerThreadRunningAnEventLoop();
    void cancelStopsARunningSleep();
    void cancelledBeforeStartDoesNotRun();
    void sleepsRunConcurrently();
    void destroyingTheRunnerCancelsItsCalls();
};

namespace {

RunContext context(const QString &target, const QString &content, const QString &body, bool shape = false)
{
    RunContext ctx;
    ctx.row.key = u"T_FN"_s;
    ctx.row.type = u"fn"_s;
    ctx.row.target = target;
    ctx.row.content = content;
    ctx.body = body;
    ctx.args = TemplateContext::splitBody(body);
    ctx.shape = shape;
    return ctx;
}

struct Delivery
{
    RunResult result;
    QThread *thread = nullptr;
    bool insideRun = false; // done was called before run() returned
    qint64 elapsedMs = 0;
};

// Runs one call and spins a local event loop until done arrives, as capdeskctl does.
std::optional<Delivery> runAndWait(Runner &runner, const RunContext &ctx, int timeoutMs = 5000)
{
    std::optional<Delivery> delivery;
    bool running = true;
    QEventLoop loop;
    QElapsedTimer timer;
    timer.start();
    runner.run(ctx, [&](RunResult result) {
        delivery = Delivery{std::move(result), QThread::currentThread(), running, timer.elapsed()};
        loop.quit();
    });
    running = false;
    if (!delivery) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return delivery;
}

} // namespace

void TestFnRunner::output_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("expected");

    QTest::addRow("empty content means [\"$1\"]")
        << u"upper"_s << QString() << u"hello|world"_s << u"HELLO"_s;
    QTest::addRow("doc lines only means [\"$1\"]")
        << u"echo"_s << u"# WHAT: echo\n# ARGS: $1\n# EX: [T_FN]x[/T_FN]"_s << u"a|b"_s << u"a"_s;
    QTest::addRow("doc lines stripped before the payload")
        << u"concat"_s << u"# WHAT: exclaim\n[\"$1\", \"!\"]\n"_s << u"hi"_s << u"hi!"_s;
    QTest::addRow("$1+ keeps the pipes") << u"echo"_s << uR"(["$1+"])"_s << u"a|b|c"_s << u"a|b|c"_s;
    QTest::addRow("$2+ takes the rest") << u"echo"_s << uR"(["$2+"])"_s << u"x|y|z"_s << u"y|z"_s;
    QTest::addRow("several args") << u"concat"_s << uR"(["$1", "-", "$2"])"_s << u"a|b"_s << u"a-b"_s;
    QTest::addRow("missing arg is empty") << u"concat"_s << uR"(["$1", "$2", "$3"])"_s << u"a"_s << u"a"_s;
    QTest::addRow("quotes and backslashes survive escaping")
        << u"echo"_s << QString() << uR"(say "hi" \ C:\dir)"_s << uR"(say "hi" \ C:\dir)"_s;
    QTest::addRow("newline and tab survive escaping")
        << u"echo"_s << QString() << u"a\nb\tc"_s << u"a\nb\tc"_s;
    QTest::addRow("non-string JSON values as compact text")
        << u"concat"_s << uR"([1, true, null, {"k": [1, 2]}, 2.5, "s"])"_s << QString()
        << uR"(1truenull{"k":[1,2]}2.5s)"_s;
    QTest::addRow("unquoted placeholder with JSON goes in as JSON")
        << u"json_get"_s << uR"([$1, "a.0"])"_s << uR"({"a":["x","y"]})"_s << u"x"_s;
    QTest::addRow("unquoted placeholder with text goes in quoted")
        << u"upper"_s << uR"([$1])"_s << u"abc"_s << u"ABC"_s;
    QTest::addRow("pipes inside a reply")
        << u"last_reply_of"_s << uR"(["$1+"])"_s << u"thinking [REPLY]a|b[/REPLY]"_s << u"a|b"_s;
    QTest::addRow("builtin failure passes through") << u"fail"_s << QString() << u"bad"_s << u"ERR: bad"_s;
    QTest::addRow("target blanks ignored") << u" lower "_s << QString() << u"ABC"_s << u"abc"_s;
    QTest::addRow("template JSON error")
        << u"echo"_s << uR"([$$1])"_s << u"not json"_s << u"ERR: template: "_s;
    QTest::addRow("object payload") << u"echo"_s << uR"({"a": "$1"})"_s << u"x"_s
                                    << u"ERR: fn payload must be a JSON array of arguments"_s;
    QTest::addRow("string payload") << u"echo"_s << uR"("$1")"_s << u"x"_s
                                    << u"ERR: fn payload must be a JSON array of arguments"_s;
    QTest::addRow("unknown fn") << u"nope"_s << QString() << u"x"_s << u"ERR: unknown fn nope"_s;
    QTest::addRow("unknown fn beats a bad payload")
        << u"nope"_s << u"{}"_s << u"x"_s << u"ERR: unknown fn nope"_s;
    QTest::addRow("empty target") << QString() << QString() << u"x"_s << u"ERR: unknown fn "_s;
}

void TestFnRunner::output()
{
    QFETCH(QString, target);
    QFETCH(QString, content);
    QFETCH(QString, body);
    QFETCH(QString, expected);

    FnRunner runner;
    const std::optional<Delivery> delivery = runAndWait(runner, context(target, content, body));
    QVERIFY(delivery);
    // A template error quotes the JSON checker's message; the prefix is what callers test.
    if (expected == u"ERR: template: "_s)
        QVERIFY2(delivery->result.output.startsWith(expected), qPrintable(delivery->result.output));
    else
        QCOMPARE(delivery->result.output, expected);
    QVERIFY(delivery->result.shapeRequest.isEmpty());
}

void TestFnRunner::shape_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QStringList>("notes");

    QTest::addRow("default payload") << u"upper"_s << QString() << u"a|b"_s
                                     << QJsonObject{{u"fn"_s, u"upper"_s}, {u"args"_s, QJsonArray{u"a"_s}}}
                                     << QStringList();
    QTest::addRow("payload args, JSON values as text")
        << u"concat"_s << uR"(["$2+", 1, {"k": true}])"_s << u"a|b|c"_s
        << QJsonObject{{u"fn"_s, u"concat"_s}, {u"args"_s, QJsonArray{u"b|c"_s, u"1"_s, uR"({"k":true})"_s}}}
        << QStringList();
    QTest::addRow("unknown fn noted")
        << u"x"_s << QString() << u"a"_s << QJsonObject{{u"fn"_s, u"x"_s}, {u"args"_s, QJsonArray{u"a"_s}}}
        << QStringList{u"unknown fn x"_s};
    QTest::addRow("non-array payload noted")
        << u"echo"_s << uR"({"a": "$1"})"_s << u"v"_s
        << QJsonObject{{u"fn"_s, u"echo"_s}, {u"payload"_s, uR"({"a": "v"})"_s}}
        << QStringList{u"ERR: fn payload must be a JSON array of arguments"_s};
}

void TestFnRunner::shape()
{
    QFETCH(QString, target);
    QFETCH(QString, content);
    QFETCH(QString, body);
    QFETCH(QJsonObject, request);
    QFETCH(QStringList, notes);

    FnRunner runner;
    const std::optional<Delivery> delivery = runAndWait(runner, context(target, content, body, true));
    QVERIFY(delivery);
    QCOMPARE(delivery->result.shapeRequest, request);
    QCOMPARE(delivery->result.notes, notes);
    QVERIFY(delivery->result.output.isEmpty());
}

void TestFnRunner::shapeDoesNotRunTheBuiltin()
{
    FnRunner runner;
    const std::optional<Delivery> delivery =
        runAndWait(runner, context(u"sleep_ms"_s, QString(), u"5000"_s, true));
    QVERIFY(delivery);
    QVERIFY2(delivery->elapsedMs < 1000, qPrintable(QString::number(delivery->elapsedMs)));
    QCOMPARE(delivery->result.shapeRequest,
             (QJsonObject{{u"fn"_s, u"sleep_ms"_s}, {u"args"_s, QJsonArray{u"5000"_s}}}));
    QVERIFY(delivery->result.notes.isEmpty());
}

void TestFnRunner::doneArrivesLaterOnTheCallingThread()
{
    FnRunner runner;
    for (const RunContext &ctx :
         {context(u"sleep_ms"_s, QString(), u"20"_s), context(u"nope"_s, QString(), {}),
          context(u"echo"_s, QString(), u"x"_s, true)}) {
        const std::optional<Delivery> delivery = runAndWait(runner, ctx);
        QVERIFY(delivery);
        QCOMPARE(delivery->thread, QThread::currentThread());
        QVERIFY(!delivery->insideRun);
    }
}

void TestFnRunner::doneArrivesOnAWorkerThreadRunningAnEventLoop()
{
    FnRunner runner;
    std::optional<Delivery> delivery;
    QThread *caller = nullptr;
    QThread *worker = QThread::create([&] {
        caller = QThread::currentThread();
        delivery = runAndWait(runner, context(u"sleep_ms"_s, QString(), u"20"_s));
    });
    worker->start();
    QVERIFY(worker->wait(10000));
    delete worker;

    QVERIFY(delivery);
    QCOMPARE(delivery->result.output, u"slept 20 ms"_s);
    QCOMPARE(delivery->thread, caller);
}

void TestFnRunner::cancelStopsARunningSleep()
{
    FnRunner runner;
    const RunContext ctx = context(u"sleep_ms"_s, QString(), u"5000"_s);
    QTimer::singleShot(50, [cancelled = ctx.cancelled] { cancelled->store(true); });
    const std::optional<Delivery> delivery = runAndWait(runner, ctx);
    QVERIFY(delivery);
    QCOMPARE(delivery->result.output, u"ERR: cancelled"_s);
    QVERIFY2(delivery->elapsedMs < 1000, qPrintable(QString::number(delivery->elapsedMs)));
}

void TestFnRunner::cancelledBeforeStartDoesNotRun()
{
    FnRunner runner;
    const RunContext ctx = context(u"uuid"_s, QString(), QString());
    ctx.cancelled->store(true);
    const std::optional<Delivery> delivery = runAndWait(runner, ctx);
    QVERIFY(delivery);
    QCOMPARE(delivery->result.output, u"ERR: cancelled"_s);
}

void TestFnRunner::sleepsRunConcurrently()
{
    FnRunner runner;
    constexpr int calls = 6;
    int finished = 0;
    QEventLoop loop;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < calls; ++i) {
        runner.run(context(u"sleep_ms"_s, QString(), u"300"_s), [&](const RunResult &result) {
            QCOMPARE(result.output, u"slept 300 ms"_s);
            if (++finished == calls)
                loop.quit();
        });
    }
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    loop.exec();
    QCOMPARE(finished, calls);
    // One after another they would take 1.8 s, and even the machine's core count of
    // threads would take at least two rounds.
    QVERIFY2(timer.elapsed() < 590, qPrintable(QString::number(timer.elapsed())));
}

void TestFnRunner::destroyingTheRunnerCancelsItsCalls()
{
    auto runner = std::make_unique<FnRunner>();
    std::optional<RunResult> result;
    runner->run(context(u"sleep_ms"_s, QString(), u"5000"_s), [&](RunResult r) { result = std::move(r); });
    QTest::qWait(50);

    QElapsedTimer timer;
    timer.start();
    runner.reset();
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    QTRY_VERIFY(result);
    QCOMPARE(result->output, u"ERR: cancelled"_s);
}

QTEST_GUILESS_MAIN(TestFnRunner)
#include "tst_fnrunner.moc"
