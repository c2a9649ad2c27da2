#include "dispatch/core/faultnotice.h"

#include <QRegularExpression>
#include <QTemporaryFile>
#include <QTest>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

// What hide() writes on stderr, and what it returns.
std::pair<QByteArray, QString> hiddenWithLog(const QString &detail)
{
    QTemporaryFile capture;
    if (!capture.open())
        return {};
    std::fflush(stderr);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(capture.handle(), STDERR_FILENO);
    const QString told = FaultNotice::hide(detail);
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    capture.seek(0);
    return {capture.readAll(), told};
}

} // namespace

class TestFaultNotice : public QObject
{
    Q_OBJECT

private slots:
    void theCallerIsToldAnIdTheLogExplains_data();
    void theCallerIsToldAnIdTheLogExplains();
    void eachFaultHasItsOwnId();
};

void TestFaultNotice::theCallerIsToldAnIdTheLogExplains_data()
{
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QByteArray>("logged");
    QTest::addRow("a path") << u"cannot read /srv/capdesk/d.db.signing-key"_s
                            << QByteArray("cannot read /srv/capdesk/d.db.signing-key\n");
    // A line break in the text would let it forge the next log entry.
    QTest::addRow("line breaks") << u"first\nPOST /api/dispatch 200 1ms 127.0.0.1\r\u2028x"_s
                                 << QByteArray("first POST /api/dispatch 200 1ms 127.0.0.1  x\n");
    QTest::addRow("a right-to-left override") << u"key\u202Eyek"_s << QByteArray("key yek\n");
    QTest::addRow("non-ASCII") << u"clé absente"_s << QByteArray("clé absente\n");
}

void TestFaultNotice::theCallerIsToldAnIdTheLogExplains()
{
    QFETCH(QString, detail);
    QFETCH(QByteArray, logged);
    const auto [log, told] = hiddenWithLog(detail);
    static const QRegularExpression notice(u"^Capdesk could not do this \\(fault ([0-9a-f]{8})\\); "_s);
    const QRegularExpressionMatch id = notice.match(told);
    QVERIFY2(id.hasMatch(), qPrintable(told));
    QVERIFY(!told.contains(detail.left(10)));
    QVERIFY(FaultNotice::isNotice(told));
    QVERIFY(!FaultNotice::isNotice(detail));
    QCOMPARE(log, "capdesk: fault " + id.captured(1).toUtf8() + ": " + logged);
    QCOMPARE(log.count('\n'), 1);
}

void TestFaultNotice::eachFaultHasItsOwnId()
{
    QSet<QString> told;
    for (int i = 0; i < 50; ++i)
        told.insert(hiddenWithLog(u"the same fault"_s).second);
    QCOMPARE(told.size(), 50);
}

QTEST_GUILESS_MAIN(TestFaultNotice)
#include "tst_faultnotice.moc"
