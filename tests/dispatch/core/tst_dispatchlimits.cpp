#include "dispatch/call/callbudget.h"
#include "dispatch/receipts/receiptlog.h"
#include "dispatch/runners/builtins/builtinregistry.h"
#include "tests/dispatch/flowtestdirectory.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Qt::StringLiterals;

// Issue 13, items 3 and 4: every bound of DispatchLimits, over the real LocalDispatcher,
// fn and flow runners and ledger, each crossing a named "ERR:" that stops the work.
class TestDispatchLimits : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void replaceGrowthStopsAtTheCap_data();
    void replaceGrowthStopsAtTheCap();
    void prevDoublingStopsAtTheCap();
    void fanOutObjectIsCapped();
    void theDeadlineStopsTheWork();
    void nestedFanOutsRunOutOfTheTreeBudget();
    void fanOutWidthIsLimited();
    void treeBytesAreLimited();
    void regexCaps_data();
    void regexCaps();
    void budgetHeaderOnlyLowers_data();
    void budgetHeaderOnlyLowers();

private:
    int allReceipts() const;
    void setLimits(const DispatchLimits &limits) { m_directory->dispatcher->setLimits(limits); }

    std::unique_ptr<FlowTestDirectory> m_directory;
};

void TestDispatchLimits::init()
{
    m_directory = std::make_unique<FlowTestDirectory>();
    QVERIFY(m_directory->open());
    QVERIFY(!m_directory->store
                 ->importRows(
                     {flowTestRow(u"TEXT_REPLACE"_s, u"fn"_s, u"replace"_s, u"[\"$3+\",\"$1\",\"$2\"]"_s),
                      flowTestRow(u"MATCH"_s, u"fn"_s, u"regex_extract"_s, u"[\"$1\",\"$2\"]"_s)})
                 .isError());
}

int TestDispatchLimits::allReceipts() const
{
    return int(m_directory->ledger->receipts().list({}).value().size());
}

void TestDispatchLimits::replaceGrowthStopsAtTheCap_data()
{
    QTest::addColumn<qint64>("cap");
    QTest::addColumn<int>("textLength");
    QTest::addColumn<int>("replacementLength");
    QTest::addColumn<bool>("refused");
    // The red team's row: a 52 KB body whose every character becomes 2,000 (about 100 MB).
    QTest::addRow("52 KB × 2,000 under the default cap")
        << DispatchLimits{}.maxOutputBytes << 52000 << 2000 << true;
    QTest::addRow("just over a 1 MiB cap") << qint64(1 << 20) << 1025 << 1024 << true;
    QTest::addRow("exactly a 1 MiB cap") << qint64(1 << 20) << 1024 << 1024 << false;
}

void TestDispatchLimits::replaceGrowthStopsAtTheCap()
{
    QFETCH(qint64, cap);
    QFETCH(int, textLength);
    QFETCH(int, replacementLength);
    QFETCH(bool, refused);
    DispatchLimits limits;
    limits.maxOutputBytes = cap;
    setLimits(limits);
    const QString body = u"a|"_s + QString(replacementLength, u'b') + u'|' + QString(textLength, u'a');
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome = m_directory->invoke(u"TEXT_REPLACE"_s, body);
    if (refused) {
        QCOMPARE(outcome.result.output,
                 u"ERR: output_limit: replace's result is more than the %1 bytes allowed"_s.arg(cap));
        // Refused from the count, before anything of that size was built.
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    } else {
        QCOMPARE(outcome.result.output.size(), qsizetype(cap));
    }
}

void TestDispatchLimits::prevDoublingStopsAtTheCap()
{
    DispatchLimits limits;
    limits.maxOutputBytes = 1 << 20;
    setLimits(limits);
    QVERIFY(m_directory->addFlow(u"DOUBLING"_s, QStringList(40, u"ECHO: $PREV$PREV"_s).join(u" > "_s)));
    const InvocationOutcome outcome = m_directory->invoke(u"DOUBLING"_s, QString(1000, u'x'));
    QCOMPARE(outcome.result.output,
             u"ERR: output_limit: the substituted text is more than the 1048576 bytes allowed"_s);
    // 1,000 bytes doubled ten times is 1,024,000; the eleventh step's body is refused unsent.
    QCOMPARE(m_directory->receipts(u"ECHO"_s).size(), 10);
}

void TestDispatchLimits::fanOutObjectIsCapped()
{
    DispatchLimits limits;
    limits.maxOutputBytes = 1000;
    setLimits(limits);
    QVERIFY(m_directory->addFlow(u"WIDE"_s, u"{ ECHO: $1 | ECHO: $1 } > SHOUT"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"WIDE"_s, QString(600, u'x'));
    QCOMPARE(outcome.result.output,
             u"ERR: output_limit: step 1's fan-out object is more than the 1000 bytes allowed"_s);
    QVERIFY(m_directory->receipts(u"SHOUT"_s).isEmpty());
}

void TestDispatchLimits::theDeadlineStopsTheWork()
{
    DispatchLimits limits;
    limits.timeoutMs = 300;
    setLimits(limits);
    QVERIFY(m_directory->addFlow(u"SLOW"_s, QStringList(20, u"NAP: 100"_s).join(u" > "_s)));
    const QDateTime deadline = QDateTime::currentDateTimeUtc().addMSecs(limits.timeoutMs);
    QElapsedTimer timer;
    timer.start();
    const InvocationOutcome outcome = m_directory->invoke(u"SLOW"_s, QString());
    QCOMPARE(outcome.result.output, u"ERR: dispatch_timeout: the call ran past its 300 ms and was stopped"_s);
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    // Long enough for the rest of the 2 s flow to have run had it not been stopped; the
    // step cut off at the deadline still writes its receipt, and nothing starts after it.
    QTest::qWait(500);
    const QList<Receipt> naps = m_directory->receipts(u"NAP"_s);
    QVERIFY2(naps.size() <= 4, qPrintable(QString::number(naps.size())));
    for (const Receipt &nap : naps)
        QVERIFY(QDateTime::fromString(nap.startedAt, Qt::ISODateWithMs) <= deadline);
}

void TestDispatchLimits::nestedFanOutsRunOutOfTheTreeBudget()
{
    // The red team's tree: 8-wide fan-outs nested 4 deep, 4,681 calls before the budget.
    const auto fanOut = [](const QString &key) {
        return u"{ "_s + QStringList(8, key).join(u" | "_s) + u" }"_s;
    };
    QVERIFY(m_directory->addFlow(u"LEVEL3"_s, fanOut(u"ECHO: x"_s)));
    QVERIFY(m_directory->addFlow(u"LEVEL2"_s, fanOut(u"LEVEL3: x"_s)));
    QVERIFY(m_directory->addFlow(u"LEVEL1"_s, fanOut(u"LEVEL2: x"_s)));
    QVERIFY(m_directory->addFlow(u"TOP"_s, fanOut(u"LEVEL1: x"_s)));
    const InvocationOutcome outcome = m_directory->invoke(u"TOP"_s, QString());
    QVERIFY2(outcome.result.output.startsWith(u"ERR: call_budget: the call tree may make 256 calls in all"_s),
             qPrintable(outcome.result.output));
    const int receipts = allReceipts();
    QVERIFY2(receipts <= DispatchLimits{}.maxTreeCalls, qPrintable(QString::number(receipts)));
}

void TestDispatchLimits::fanOutWidthIsLimited()
{
    QVERIFY(m_directory->addFlow(u"TOO_WIDE"_s,
                                 u"{ "_s + QStringList(17, u"ECHO: x"_s).join(u" | "_s) + u" }"_s));
    const InvocationOutcome outcome = m_directory->invoke(u"TOO_WIDE"_s, QString());
    QCOMPARE(outcome.result.output,
             u"ERR: call_budget: step 1 fans out to 17 branches, more than the 16 allowed"_s);
    QVERIFY(m_directory->receipts(u"ECHO"_s).isEmpty());
}

void TestDispatchLimits::treeBytesAreLimited()
{
    DispatchLimits limits;
    limits.maxTreeBytes = 10000;
    setLimits(limits);
    QVERIFY(m_directory->addFlow(u"CHATTY"_s, QStringList(20, u"ECHO"_s).join(u" > "_s)));
    const InvocationOutcome outcome = m_directory->invoke(u"CHATTY"_s, QString(1000, u'x'));
    QCOMPARE(outcome.result.output,
             u"ERR: call_budget: the call tree's outputs passed the 10000 bytes allowed in all"_s);
    // Ten outputs fill the 10,000 bytes; the eleventh is the one refused.
    QCOMPARE(m_directory->receipts(u"ECHO"_s).size(), 11);
}

void TestDispatchLimits::regexCaps_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("output");
    const DispatchLimits limits;
    QTest::addRow("within both caps") << u"order 1234"_s << u"(\\d+)"_s << u"1234"_s;
    QTest::addRow("a pattern at the cap")
        << u"a"_s << QString(limits.maxRegexPatternChars, u'a') << u"ERR: regex_extract: no match"_s;
    QTest::addRow("a pattern over the cap")
        << u"a"_s << QString(limits.maxRegexPatternChars + 1, u'a')
        << u"ERR: regex_extract: pattern_limit: the pattern is 1025 characters, more than the 1024 allowed"_s;
    QTest::addRow("a subject over the cap")
        << QString(limits.maxRegexSubjectChars + 1, u'a') << u"(a+)+$"_s
        << u"ERR: regex_extract: subject_limit: the text is 1048577 characters, more than the 1048576 allowed"_s;
}

void TestDispatchLimits::regexCaps()
{
    QFETCH(QString, text);
    QFETCH(QString, pattern);
    QFETCH(QString, output);
    const BuiltinFunction *regexExtract = BuiltinRegistry::standard().find(u"regex_extract"_s);
    QVERIFY(regexExtract);
    BuiltinCall call;
    call.args = {text, pattern};
    QCOMPARE((*regexExtract)(call), output);
}

void TestDispatchLimits::budgetHeaderOnlyLowers_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<int>("calls");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<int>("depth");
    QTest::addColumn<bool>("refused");
    const DispatchLimits limits;
    QTest::addRow("no header") << QByteArray() << limits.maxTreeCalls << limits.maxTreeBytes << 0 << false;
    QTest::addRow("lowers") << QByteArray("calls=5; bytes=100; ms=50; depth=3") << 5 << qint64(100) << 3
                            << false;
    QTest::addRow("cannot raise") << QByteArray("calls=99999; bytes=999999999999") << limits.maxTreeCalls
                                  << limits.maxTreeBytes << 0 << false;
    QTest::addRow("nothing left") << QByteArray("calls=0") << 0 << limits.maxTreeBytes << 0 << false;
    QTest::addRow("no calls field") << QByteArray("bytes=5") << 0 << qint64(0) << 0 << true;
    QTest::addRow("negative") << QByteArray("calls=-1") << 0 << qint64(0) << 0 << true;
    QTest::addRow("not a number") << QByteArray("calls=lots") << 0 << qint64(0) << 0 << true;
    QTest::addRow("overflowing") << QByteArray("calls=99999999999999999999999") << 0 << qint64(0) << 0
                                 << true;
}

void TestDispatchLimits::budgetHeaderOnlyLowers()
{
    QFETCH(QByteArray, header);
    QFETCH(int, calls);
    QFETCH(qint64, bytes);
    QFETCH(int, depth);
    QFETCH(bool, refused);
    QString error;
    const std::optional<std::shared_ptr<CallBudget>> budget =
        CallBudget::fromHeader(header, DispatchLimits{}, &error);
    QCOMPARE(!budget, refused);
    if (refused) {
        QVERIFY(error.startsWith(u"call_budget: "_s));
        return;
    }
    QCOMPARE((*budget)->callsLeft(), calls);
    QCOMPARE((*budget)->bytesLeft(), bytes);
    QCOMPARE((*budget)->inheritedDepth(), depth);
    QVERIFY((*budget)->remainingMs() <= DispatchLimits{}.timeoutMs);
}

QTEST_GUILESS_MAIN(TestDispatchLimits)
#include "tst_dispatchlimits.moc"
