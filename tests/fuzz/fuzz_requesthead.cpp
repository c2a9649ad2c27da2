// libFuzzer target for serve's request-head pre-parser (server/requestheadparser.h): raw
// bytes in, a verdict out. Beyond "no crash" it asserts what the server relies on: a head
// is accepted only whole and within its caps, never with two Content-Lengths or any
// Transfer-Encoding, with a body length within the cap, one still incomplete holds only
// CRLF line breaks (a bare LF is refused at once), and its canonical form (what Qt
// parses) re-parses to the same head with no line Qt could read as another header.
#include "server/requestheadparser.h"

#include <QByteArray>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace {

void require(bool property)
{
    if (!property)
        std::abort();
}

int countHeader(const QByteArray &raw, const QByteArray &name)
{
    int count = 0;
    for (const QByteArray &line : raw.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).toLower() == name)
            ++count;
    }
    return count;
}

// Every LF after a CR, every CR before an LF (or last, its LF still to come), no NUL.
bool breaksAreCrlf(const QByteArray &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if ((text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] != '\n') || text[i] == '\0')
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const RequestHeadParser::Limits limits{4096, 32, 1 << 20};
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const RequestHeadParser::Verdict verdict = RequestHeadParser::parse(input, limits);
    using State = RequestHeadParser::State;
    // What the access log names of any head: printable, bounded, no line break.
    const auto [method, target] = RequestHeadParser::requestLineSoFar(input);
    require(method.size() <= 32 && target.size() <= 1024 && (target.isEmpty() || target.startsWith('/')));
    for (const QByteArray &logged : {method, target})
        require(std::all_of(logged.cbegin(), logged.cend(), [](char c) { return c > 0x20 && c < 0x7f; }));
    if (verdict.state == State::Refused) {
        require(verdict.status == 400 || verdict.status == 413 || verdict.status == 431
                || verdict.status == 501);
        require(!verdict.reason.isEmpty());
        return 0;
    }
    if (verdict.state == State::Incomplete) {
        require(input.size() < limits.maxHeaderBytes);
        require(!input.left(limits.maxHeaderBytes).contains("\r\n\r\n"));
        // A head that can never end in CRLF CRLF is refused at once, not left to the deadline.
        require(breaksAreCrlf(input));
        return 0;
    }
    const RequestHead &head = verdict.head;
    require(head.headBytes > 0 && head.headBytes <= limits.maxHeaderBytes && head.headBytes <= input.size());
    require(input.mid(head.headBytes - 4, 4) == "\r\n\r\n");
    require(head.contentLength >= 0 && head.contentLength <= limits.maxBodyBytes);
    require(head.headers.size() <= limits.maxHeaderCount);
    const QByteArray raw = input.left(head.headBytes);
    require(countHeader(raw, "content-length") <= 1);
    require(countHeader(raw, "transfer-encoding") == 0);
    require(head.value("transfer-encoding").isNull());

    const QByteArray canonical = RequestHeadParser::canonical(head);
    require(canonical.count("\r\n") == head.headers.size() + 2);
    require(canonical.count('\n') == canonical.count("\r\n"));
    require(!canonical.contains('\r' + QByteArray(1, '\0')) && !canonical.contains('\0'));
    const RequestHeadParser::Verdict again = RequestHeadParser::parse(canonical, limits);
    require(again.state == State::Complete);
    require(again.head.method == head.method && again.head.target == head.target);
    require(again.head.headers == head.headers && again.head.contentLength == head.contentLength);
    require(again.head.closeAfter == head.closeAfter && again.head.headBytes == canonical.size());
    return 0;
}
