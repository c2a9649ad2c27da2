#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// CAPDESK_TRACE_STARTUP=1 in the real capdesk binary: each step of its start-up in order,
// on a clock that only goes forward, then the settled line bench_startup reads.
class TestStartupTrace : public QObject
{
    Q_OBJECT

private slots:
    void namesEachStepThenSettles();
    void saysNothingWhenOff();
};

namespace {

// Runs capdesk on its default directory under a private data folder until it prints its
// settled line (or, untraced, for as long as a traced run took), then closes it.
QString traceOf(bool traced, QTemporaryDir &home)
{
    QProcess capdesk;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    if (traced)
        environment.insert(QStringLiteral("CAPDESK_TRACE_STARTUP"), QStringLiteral("1"));
    else
        environment.remove(QStringLiteral("CAPDESK_TRACE_STARTUP"));
    capdesk.setProcessEnvironment(environment);
    capdesk.setReadChannel(QProcess::StandardError);
    capdesk.start(QStringLiteral(CAPDESK_PATH), {});
    QString err;
    QDeadlineTimer deadline(traced ? 30000 : 3000);
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
    const QString trace = traceOf(true, home);
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

void TestStartupTrace::saysNothingWhenOff()
{
    QTemporaryDir home;
    QVERIFY(!traceOf(false, home).contains(QLatin1String("capdesk startup:")));
}

QTEST_MAIN(TestStartupTrace)
#include "tst_startuptrace.moc"
