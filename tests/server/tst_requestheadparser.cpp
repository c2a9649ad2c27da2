#include "server/requestheadparser.h"

#include <QTest>

using State = RequestHeadParser::State;

// The pre-parser's grammar, one input per row: what it accepts, what it refuses and with
// which status, and what it still waits for.
class TestRequestHeadParser : public QObject
{
    Q_OBJECT

private slots:
    void verdicts_data();
    void verdicts();
    void canonicalHeadIsWhatWasAccepted();
    void requestLineSoFar_data();
    void requestLineSoFar();
};

void TestRequestHeadParser::verdicts_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("state");
    QTest::addColumn<int>("status"); // when refused
    QTest::addColumn<qint64>("contentLength");

    const auto add = [](const char *name, const QByteArray &input, State state, int status = 0,
                        qint64 length = 0) {
        QTest::addRow("%s", name) << input << int(state) << status << length;
    };
    add("GET", "GET /api/directory HTTP/1.1\r\nHost: 127.0.0.1:8787\r\n\r\n", State::Complete);
    add("POST with a body", "POST /api/dispatch HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n\r\n{}",
        State::Complete, 0, 12);
    add("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", State::Complete);
    add("half a head", "GET / HTTP/1.1\r\nHost: h\r\n", State::Incomplete);
    add("trickled prefix", "G", State::Incomplete);
    add("duplicate Content-Length",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", State::Refused,
        400);
    add("conflicting Content-Length",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\n", State::Refused, 400);
    add("Content-Length list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\n\r\n", State::Refused,
        400);
    add("signed Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\n", State::Refused,
        400);
    add("Content-Length over the cap", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n",
        State::Refused, 413);
    add("Content-Length past int64",
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", State::Refused, 400);
    add("CL and TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        State::Refused, 400);
    add("chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", State::Refused, 501);
    add("odd TE", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: xchunked\r\n\r\n", State::Refused, 501);
    add("CR LF injection in a value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rSet-Cookie: b\r\n\r\n",
        State::Refused, 400);
    add("bare LF line end", "GET / HTTP/1.1\nHost: h\r\n\r\n", State::Refused, 400);
    add("bare LF head", "GET / HTTP/1.1\nHost: h\n\n", State::Refused, 400);
    add("bare LF before the head ends", "POST / HTTP/1.1\nHost: h\nContent-Length: 5\n", State::Refused, 400);
    add("bare LF first", "\n", State::Refused, 400);
    add("bare CR before the head ends", "GET / HTTP/1.1\rHost: h", State::Refused, 400);
    add("CR that may yet end its line", "GET / HTTP/1.1\r", State::Incomplete);
    add("NUL before the head ends", QByteArray("GET / HTTP/1.1\r\nHo\0", 20), State::Refused, 400);
    add("NUL", QByteArray("GET / HTTP/1.1\r\nHost: h\0\r\n\r\n", 28), State::Refused, 400);
    add("obsolete folding", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\r\n b\r\n\r\n", State::Refused, 400);
    add("space before colon", "GET / HTTP/1.1\r\nHost: h\r\nContent-Length : 5\r\n\r\n", State::Refused, 400);
    add("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", State::Refused, 400);
    add("two keys", "GET / HTTP/1.1\r\nHost: a\r\nx-terminal-key: a\r\nX-Terminal-Key: b\r\n\r\n",
        State::Refused, 400);
    add("no Host in 1.1", "GET / HTTP/1.1\r\n\r\n", State::Refused, 400);
    add("bad Host", "GET / HTTP/1.1\r\nHost: a/b@c\r\n\r\n", State::Refused, 400);
    add("absolute target", "GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", State::Refused, 400);
    add("HTTP/2.0", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", State::Refused, 400);
    add("double space", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", State::Refused, 400);
    add("leading empty line", "\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", State::Refused, 400);
    add("head over the cap", "GET / HTTP/1.1\r\nHost: h\r\nX-A: " + QByteArray(40000, 'a'), State::Refused,
        431);
    QByteArray many = "GET / HTTP/1.1\r\nHost: h\r\n";
    for (int i = 0; i < 100; ++i)
        many += "X-" + QByteArray::number(i) + ": v\r\n";
    add("too many headers", many + "\r\n", State::Refused, 431);
}

void TestRequestHeadParser::verdicts()
{
    QFETCH(QByteArray, input);
    QFETCH(int, state);
    QFETCH(int, status);
    QFETCH(qint64, contentLength);
    const RequestHeadParser::Verdict verdict = RequestHeadParser::parse(input, {});
    QCOMPARE(int(verdict.state), state);
    if (verdict.state == State::Refused) {
        QCOMPARE(verdict.status, status);
        QVERIFY(!verdict.reason.isEmpty());
    }
    if (verdict.state == State::Complete) {
        QCOMPARE(verdict.head.contentLength, contentLength);
        QCOMPARE(input.mid(verdict.head.headBytes), input.mid(input.indexOf("\r\n\r\n") + 4));
    }
}

void TestRequestHeadParser::canonicalHeadIsWhatWasAccepted()
{
    const QByteArray input = "PUT /api/directory/K HTTP/1.1\r\nHost: h\r\nX-Terminal-Key:  k  \r\n"
                             "Content-Length: 2\r\nConnection: close\r\n\r\n{}";
    const RequestHeadParser::Verdict verdict = RequestHeadParser::parse(input, {});
    QCOMPARE(int(verdict.state), int(State::Complete));
    QVERIFY(verdict.head.closeAfter);
    QCOMPARE(verdict.head.value("x-terminal-key"), QByteArray("k"));
    QCOMPARE(
        RequestHeadParser::canonical(verdict.head),
        QByteArray("PUT /api/directory/K HTTP/1.1\r\nhost: h\r\nx-terminal-key: k\r\ncontent-length: 2\r\n"
                   "connection: close\r\n\r\n"));
}

void TestRequestHeadParser::requestLineSoFar_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addRow("whole") << QByteArray("GET /api/directory?q=x HTTP/1.1\r\nHost: h\r\n\r\n")
                           << QByteArray("GET") << QByteArray("/api/directory?q=x");
    QTest::addRow("method only") << QByteArray("POS") << QByteArray("POS") << QByteArray();
    QTest::addRow("target arriving") << QByteArray("PUT /api/dir") << QByteArray("PUT")
                                     << QByteArray("/api/dir");
    QTest::addRow("cut by a bare LF")
        << QByteArray("GET /a\nHost: h") << QByteArray("GET") << QByteArray("/a");
    QTest::addRow("not a method") << QByteArray("G\x01T / HTTP/1.1\r\n") << QByteArray() << QByteArray();
    QTest::addRow("method too long") << QByteArray(40, 'A') + " / HTTP/1.1" << QByteArray() << QByteArray();
    QTest::addRow("not a target") << QByteArray("GET http://h/ HTTP/1.1") << QByteArray("GET")
                                  << QByteArray();
    QTest::addRow("control character in the target")
        << QByteArray("GET /a\x7f HTTP/1.1") << QByteArray("GET") << QByteArray();
    QTest::addRow("long target cut") << "GET /" + QByteArray(5000, 'a') << QByteArray("GET")
                                     << "/" + QByteArray(1023, 'a');
}

void TestRequestHeadParser::requestLineSoFar()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    const auto [gotMethod, gotTarget] = RequestHeadParser::requestLineSoFar(input);
    QCOMPARE(gotMethod, method);
    QCOMPARE(gotTarget, target);
}

QTEST_GUILESS_MAIN(TestRequestHeadParser)
#include "tst_requestheadparser.moc"
