#include "server/requestheadparser.h"

#include <algorithm>
#include <optional>

namespace {

using Verdict = RequestHeadParser::Verdict;

// Headers that decide framing or who is asking: a second one is how requests are smuggled
// past a proxy that reads the other, so any repeat is refused.
const QByteArray kSingletons[] = {
    "content-length", "transfer-encoding", "host",       "x-terminal-key",        "authorization",
    "if-match",       "if-none-match",     "connection", "x-capability-audience", "capdesk-actor"};

Verdict refused(int status, const char *reason)
{
    Verdict verdict;
    verdict.state = RequestHeadParser::State::Refused;
    verdict.status = status;
    verdict.reason = reason;
    return verdict;
}

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

// field-vchar and inner spaces/tabs; no control character, no DEL.
bool isFieldValue(QByteArrayView text)
{
    return std::all_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte == '\t' || (byte >= 0x20 && byte != 0x7f);
    });
}

bool isTarget(QByteArrayView text)
{
    return text.startsWith('/') && std::all_of(text.begin(), text.end(), [](char c) {
               const auto byte = static_cast<unsigned char>(c);
               return byte > 0x20 && byte < 0x7f;
           });
}

bool isHost(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
               || QByteArrayView(".-:[]_").contains(c);
    });
}

bool hasToken(QByteArrayView list, QByteArrayView token)
{
    for (QByteArrayView item : QByteArray(list.data(), list.size()).toLower().split(',')) {
        if (item.trimmed() == token)
            return true;
    }
    return false;
}

// A line break other than CRLF, or a NUL, anywhere in `text`: such a head would never end
// in CRLF CRLF, so it is refused as soon as it shows, not at the request deadline. A CR at
// the very end may still be followed by its LF.
const char *brokenLineBreak(QByteArrayView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            return "a line ended by a bare LF (HTTP lines end with CRLF)";
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] != '\n')
            return "a bare CR in the head";
        if (text[i] == '\0')
            return "a NUL in the head";
    }
    return nullptr;
}

bool parseRequestLine(QByteArrayView line, RequestHead *head)
{
    const qsizetype first = line.indexOf(' ');
    const qsizetype second = first < 0 ? -1 : line.indexOf(' ', first + 1);
    if (second < 0 || line.indexOf(' ', second + 1) >= 0)
        return false;
    const QByteArrayView method = line.first(first);
    const QByteArrayView target = line.sliced(first + 1, second - first - 1);
    const QByteArrayView version = line.sliced(second + 1);
    if (!isToken(method) || !isTarget(target))
        return false;
    if (version == "HTTP/1.1")
        head->minorVersion = 1;
    else if (version == "HTTP/1.0")
        head->minorVersion = 0;
    else
        return false;
    head->method = method.toByteArray();
    head->target = target.toByteArray();
    return true;
}

std::optional<Verdict> parseHeaderLine(QByteArrayView line, RequestHead *head)
{
    if (line.startsWith(' ') || line.startsWith('\t'))
        return refused(400, "obsolete line folding");
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || !isToken(line.first(colon)))
        return refused(400, "a header name that is not a token (or whitespace before its colon)");
    const QByteArrayView value = line.sliced(colon + 1).trimmed();
    if (!isFieldValue(value))
        return refused(400, "a control character in a header value");
    const QByteArray name = line.first(colon).toByteArray().toLower();
    if (std::find(std::begin(kSingletons), std::end(kSingletons), name) != std::end(kSingletons)
        && !head->value(name).isNull())
        return name == "content-length" ? refused(400, "more than one Content-Length")
                                        : refused(400, "a header that may appear once appears twice");
    head->headers.append({name, value.isEmpty() ? QByteArray("") : value.toByteArray()});
    return std::nullopt;
}

std::optional<Verdict> checkFraming(RequestHead *head, const RequestHeadParser::Limits &limits)
{
    const QByteArray length = head->value("content-length");
    if (!head->value("transfer-encoding").isNull())
        return length.isNull() ? refused(501, "Transfer-Encoding is not supported; send Content-Length")
                               : refused(400, "both Transfer-Encoding and Content-Length");
    if (!length.isNull()) {
        if (length.isEmpty() || length.size() > 18
            || !std::all_of(length.cbegin(), length.cend(), [](char c) { return c >= '0' && c <= '9'; }))
            return refused(400, "Content-Length is not one whole number");
        head->contentLength = length.toLongLong();
        if (head->contentLength > limits.maxBodyBytes)
            return refused(413, "request body over the server's limit (Content-Length)");
    }
    const QByteArray host = head->value("host");
    if (head->minorVersion == 1 && host.isNull())
        return refused(400, "HTTP/1.1 wants one Host header");
    if (!host.isNull() && !isHost(host))
        return refused(400, "Host is not a host name or address");
    const QByteArray connection = head->value("connection");
    head->closeAfter =
        hasToken(connection, "close") || (head->minorVersion == 0 && !hasToken(connection, "keep-alive"));
    return std::nullopt;
}

} // namespace

RequestHeadParser::Verdict RequestHeadParser::parse(QByteArrayView bytes, const Limits &limits)
{
    const QByteArrayView window = bytes.first(std::min<qsizetype>(bytes.size(), limits.maxHeaderBytes));
    const qsizetype end = window.indexOf("\r\n\r\n");
    if (const char *broken = brokenLineBreak(end < 0 ? window : window.first(end + 4)))
        return refused(400, broken);
    if (end < 0) {
        if (bytes.size() >= limits.maxHeaderBytes)
            return refused(431, "request line and headers over the server's limit");
        if (bytes.startsWith("\r\n"))
            return refused(400, "an empty line where the request line belongs");
        return {};
    }
    Verdict verdict;
    RequestHead &head = verdict.head;
    head.headBytes = end + 4;
    const QByteArrayView text = bytes.first(end);
    qsizetype start = 0;
    int lineNumber = 0;
    while (start <= text.size()) {
        qsizetype stop = text.indexOf("\r\n", start);
        if (stop < 0)
            stop = text.size();
        const QByteArrayView line = text.sliced(start, stop - start);
        if (lineNumber == 0) {
            if (!parseRequestLine(line, &head))
                return refused(400, "the request line is not METHOD /target HTTP/1.x");
        } else if (lineNumber > limits.maxHeaderCount) {
            return refused(431, "more headers than the server takes");
        } else if (std::optional<Verdict> bad = parseHeaderLine(line, &head)) {
            return *bad;
        }
        ++lineNumber;
        start = stop + 2;
    }
    if (std::optional<Verdict> bad = checkFraming(&head, limits))
        return *bad;
    verdict.state = State::Complete;
    return verdict;
}

std::pair<QByteArray, QByteArray> RequestHeadParser::requestLineSoFar(QByteArrayView bytes)
{
    constexpr qsizetype kMethodBytes = 32;
    constexpr qsizetype kTargetBytes = 1024;
    qsizetype lineEnd = bytes.size();
    for (const char stop : {'\r', '\n'}) {
        if (const qsizetype at = bytes.indexOf(stop); at >= 0)
            lineEnd = std::min(lineEnd, at);
    }
    const QByteArrayView line = bytes.first(lineEnd);
    const qsizetype space = line.indexOf(' ');
    const QByteArrayView method = space < 0 ? line : line.first(space);
    if (!isToken(method) || method.size() > kMethodBytes)
        return {};
    if (space < 0)
        return {method.toByteArray(), {}};
    QByteArrayView target = line.sliced(space + 1);
    if (const qsizetype end = target.indexOf(' '); end >= 0)
        target = target.first(end);
    target = target.first(std::min(target.size(), kTargetBytes));
    return {method.toByteArray(), isTarget(target) ? target.toByteArray() : QByteArray()};
}

QByteArray RequestHeadParser::canonical(const RequestHead &head)
{
    QByteArray out =
        head.method + ' ' + head.target + (head.minorVersion == 1 ? " HTTP/1.1\r\n" : " HTTP/1.0\r\n");
    for (const auto &[name, value] : head.headers)
        out += name + ": " + value + "\r\n";
    out += "\r\n";
    return out;
}
