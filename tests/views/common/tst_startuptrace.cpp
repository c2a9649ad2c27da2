#include "views/common/startuptrace.h"

#include <QApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cstring>

// CAPDESK_TRACE_STARTUP=1 in the real capdesk binary: each step of its start-up in order,
// on a clock that only goes forward, then the settled line bench_startup reads. Off, the
// trace says nothing (this program run with kTraceChild, which marks a step and watches
// a window's paints).
class TestStartupTrace : public QObject
{
    Q_OBJECT

private slots:
    void namesEachStepThenSettles();
    void printsOnlyWhenAsked_data();
    void printsOnlyWhenAsked();
};

constexpr char kTraceChild[] = "--mark-a-step-and-show-a-window";

namespace {

int markAStepAndShowAWindow(int argc, char **argv)
{
    StartupTrace::begin();
    QApplication app(argc, argv);
    StartupTrace::mark("a step");
    QWidget window;
    StartupTrace::watchPaints(&window);
    window.show();
    return QTest::qWaitForWindowExposed(&window) ? 0 : 3;
}

// Runs capdesk on its default directory under a private data folder until it prints its
// settled line, then closes it.
QString traceOf(QTemporaryDir &home)
{
    QProcess capdesk;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("CAPDESK_TRACE_STARTUP"), QStringLiteral("1"));
    capdesk.setProcessEnvironment(environment);
    capdesk.setReadChannel(QProcess::StandardError);
    capdesk.start(QStringLiteral(CAPDESK_PATH), {});
    if (!capdesk.waitForStarted(10000))
        return QStringLiteral("capdesk did not start: ") + capdesk.errorString();
    QString err;
    QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired() && !err.contains(QLatin1String("settled"))) {
        if (capdesk.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
            err += QString::fromUtf8(capdesk.readAllStandardError());
        if (capdesk.state() == QProcess::NotRunning)
            break;
    }
    capdesk.terminate();
    if (!capdesk.waitForFinished(10000))
        capdesk.kill();
    return err + QString::fromUtf8(capdesk.readAllStandardError());
}

} // namespace

void TestStartupTrace::namesEachStepThenSettles()
{
    QTemporaryDir home;
    const QString trace = traceOf(home);
    static const QRegularExpression line(QStringLiteral(R"(^capdesk startup: +([0-9.]+) ms  (.+)$)"),
                                         QRegularExpression::MultilineOption);
    QStringList steps;
    double previous = 0;
    for (auto it = line.globalMatch(trace); it.hasNext();) {
        const QRegularExpressionMatch step = it.next();
        const double at = step.captured(1).toDouble();
        QVERIFY2(at >= previous, qPrintable(trace));
        previous = at;
        steps.append(step.captured(2).section(u" ("_qs, 0, 0));
    }
    const QStringList expected{u"QApplication"_qs,     u"window built"_qs,      u"window shown"_qs,
                               u"directory opened"_qs, u"first table paint"_qs, u"settled"_qs};
    QCOMPARE(steps, expected);
    static const QRegularExpression settled(
        QStringLiteral(R"(settled \(the last paint; none for (\d+) ms after, printed at ([0-9.]+) ms\))"));
    const QRegularExpressionMatch end = settled.match(trace);
    QVERIFY2(end.hasMatch(), qPrintable(trace));
    QVERIFY(end.captured(2).toDouble() - previous >= end.captured(1).toDouble());
}

void TestStartupTrace::printsOnlyWhenAsked_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<bool>("prints");
    QTest::newRow("1") << u"1"_qs << true;
    QTest::newRow("0") << u"0"_qs << false;
    QTest::newRow("unset") << QString() << false;
}

void TestStartupTrace::printsOnlyWhenAsked()
{
    QFETCH(QString, setting);
    QFETCH(bool, prints);
    QProcess child;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (setting.isNull())
        environment.remove(QStringLiteral("CAPDESK_TRACE_STARTUP"));
    else
        environment.insert(QStringLiteral("CAPDESK_TRACE_STARTUP"), setting);
    child.setProcessEnvironment(environment);
    child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(kTraceChild)});
    QVERIFY(child.waitForStarted(10000));
    QVERIFY(child.waitForFinished(60000));
    QCOMPARE(child.exitStatus(), QProcess::NormalExit);
    QCOMPARE(child.exitCode(), 0);
    const QByteArray err = child.readAllStandardError();
    QCOMPARE(err.contains("capdesk startup:"), prints);
    QCOMPARE(err.contains(" ms  a step\n"), prints);
}

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], kTraceChild) == 0)
        return markAStepAndShowAWindow(argc, argv);
    QApplication app(argc, argv);
    TestStartupTrace test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_startuptrace.moc"
