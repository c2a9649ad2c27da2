#include "tests/support/minimalserver.h"

#include <QAbstractHttpServer>
#include <QCryptographicHash>
#include <QDateTime>
#include <QHash>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QThread>

using Method = QHttpServerRequest::Method;

namespace {

const QStringList kAllowList{
    QStringLiteral("type"),         QStringLiteral("target"),       QStringLiteral("auth"),
    QStringLiteral("content"),      QStringLiteral("category"),     QStringLiteral("allowed_categories"),
    QStringLiteral("seq"),          QStringLiteral("enabled"),      QStringLiteral("planner_visible"),
    QStringLiteral("planner_rank"), QStringLiteral("input_schema"), QStringLiteral("examples"),
    QStringLiteral("includes")};

QByteArray methodName(Method method)
{
    switch (method) {
    case Method::Get:
        return QByteArrayLiteral("GET");
    case Method::Post:
        return QByteArrayLiteral("POST");
    case Method::Put:
        return QByteArrayLiteral("PUT");
    case Method::Patch:
        return QByteArrayLiteral("PATCH");
    case Method::Delete:
        return QByteArrayLiteral("DELETE");
    default:
        return QByteArrayLiteral("OTHER");
    }
}

QJsonObject error(const QString &message)
{
    return {{QStringLiteral("error"), message}};
}

// Every column a stored row has, with the production table's defaults.
QJsonObject withDefaults(QJsonObject row)
{
    const QJsonObject defaults{{QStringLiteral("target"), QJsonValue::Null},
                               {QStringLiteral("auth"), QJsonValue::Null},
                               {QStringLiteral("content"), QJsonValue::Null},
                               {QStringLiteral("category"), QJsonValue::Null},
                               {QStringLiteral("allowed_categories"), QJsonValue::Null},
                               {QStringLiteral("seq"), QJsonValue::Null},
                               {QStringLiteral("enabled"), 1},
                               {QStringLiteral("planner_visible"), 1},
                               {QStringLiteral("planner_rank"), 100},
                               {QStringLiteral("input_schema"), QJsonValue::Null},
                               {QStringLiteral("examples"), QJsonValue::Null},
                               {QStringLiteral("sensitive"), 0},
                               {QStringLiteral("runner"), QJsonValue::Null},
                               {QStringLiteral("includes"), QJsonValue::Null}};
    for (auto it = defaults.constBegin(); it != defaults.constEnd(); ++it) {
        if (!row.contains(it.key()))
            row.insert(it.key(), it.value());
    }
    return row;
}

QString randomId(const QString &prefix, int length)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    QString id = prefix;
    for (int i = 0; i < length; ++i)
        id += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
    return id;
}

// `$N` in a URL, percent-encoded: the one template form this server knows.
QString substituteUrl(const QString &url, const QStringList &args)
{
    static const QRegularExpression placeholder(QStringLiteral("\\$(\\d+)"));
    QString out;
    qsizetype last = 0;
    for (const QRegularExpressionMatch &match : placeholder.globalMatch(url)) {
        out += url.mid(last, match.capturedStart() - last);
        out += QString::fromLatin1(QUrl::toPercentEncoding(args.value(match.captured(1).toInt() - 1)));
        last = match.capturedEnd();
    }
    return out + url.mid(last);
}

} // namespace

// The server proper, on MinimalServer's thread; only that thread touches its members.
class MinimalServer::Http final : public QAbstractHttpServer
{
public:
    explicit Http(QByteArray ownerKey)
        : m_ownerKey(std::move(ownerKey)), m_network(new QNetworkAccessManager(this))
    {}

    QList<Request> requests;
    QHash<QString, QJsonObject> rows;
    bool offersETags = false;
    bool strictDispatch = false;
    QString stamp();

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    struct Reply
    {
        int status = 200;
        QJsonObject body;
    };

    Reply list(const QHttpServerRequest &request) const;
    Reply create(const QJsonObject &row);
    Reply replace(const QString &key, QJsonObject row);
    Reply patch(const QString &key, const QJsonObject &fields);
    Reply remove(const QString &key);
    Reply query(const QHttpServerRequest &request) const;
    void dispatch(const QJsonObject &call, const std::shared_ptr<QHttpServerResponder> &responder);
    static QJsonArray hygieneFindings(const QJsonObject &row);
    static void write(QHttpServerResponder &responder, const Reply &reply);
    static void writeTagged(QHttpServerResponder &responder, const QHttpServerRequest &request,
                            const Reply &reply);

    QByteArray m_ownerKey;
    QStringList m_order; // keys in the order they were created: a listing is not sorted
    QHash<QString, bool> m_invocations; // ids of dispatches that ran, and whether materially
    QString m_lastStamp;
    QNetworkAccessManager *m_network;
};

QJsonObject MinimalServer::Request::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QByteArray MinimalServer::Request::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QString MinimalServer::Http::stamp()
{
    QDateTime now = QDateTime::currentDateTimeUtc();
    QString text = now.toString(Qt::ISODateWithMs);
    while (text <= m_lastStamp) {
        now = now.addMSecs(1);
        text = now.toString(Qt::ISODateWithMs);
    }
    m_lastStamp = text;
    return text;
}

QJsonArray MinimalServer::Http::hygieneFindings(const QJsonObject &row)
{
    if (row.value(QStringLiteral("content")).toString().contains(QLatin1String("# WHAT:")))
        return {};
    return {QJsonObject{{QStringLiteral("key"), row.value(QStringLiteral("key"))},
                        {QStringLiteral("code"), QStringLiteral("H010")},
                        {QStringLiteral("name"), QStringLiteral("doc_what")},
                        {QStringLiteral("severity"), QStringLiteral("error")},
                        {QStringLiteral("field"), QStringLiteral("content")},
                        {QStringLiteral("message"), QStringLiteral("no description: add a # WHAT: line")}}};
}

bool MinimalServer::Http::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    Request recorded;
    recorded.method = methodName(request.method());
    recorded.pathAndQuery =
        request.url().path() + (request.url().hasQuery() ? u'?' + request.url().query() : QString());
    recorded.body = request.body();
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("x-terminal-key", Qt::CaseInsensitive) == 0)
            recorded.hadOwnerKey = true;
        else
            recorded.headers.append({name, value});
    }
    requests.append(recorded);

    QHttpServerResponder responder = makeResponder(request, socket);
    const QString path = request.url().path();
    const bool mutating = request.method() != Method::Get;
    if (mutating && request.value(QByteArrayLiteral("x-terminal-key")) != m_ownerKey) {
        write(responder, {401, error(QStringLiteral("unauthorized"))});
        return true;
    }
    const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
    const QString rowPrefix = QStringLiteral("/api/directory/");
    if (path == QLatin1String("/api/directory") && request.method() == Method::Get) {
        if (offersETags)
            writeTagged(responder, request, list(request));
        else
            write(responder, list(request));
    } else if (path == QLatin1String("/api/directory") && request.method() == Method::Post) {
        write(responder, create(body));
    } else if (path.startsWith(rowPrefix) && path.size() > rowPrefix.size()) {
        const QString key = path.mid(rowPrefix.size());
        switch (request.method()) {
        case Method::Get:
            write(responder, rows.contains(key) ? Reply{200, rows.value(key)}
                                                : Reply{404, error(QStringLiteral("not found"))});
            break;
        case Method::Put:
            write(responder, replace(key, body));
            break;
        case Method::Patch:
            write(responder, patch(key, body));
            break;
        case Method::Delete:
            write(responder, remove(key));
            break;
        default:
            write(responder, {404, error(QStringLiteral("not found"))});
        }
    } else if (path == QLatin1String("/api/dispatch") && request.method() == Method::Get) {
        const QUrlQuery query = request.query();
        if (query.queryItemValue(QStringLiteral("format")) == QLatin1String("markdown")
            && rows.contains(query.queryItemValue(QStringLiteral("key")))) {
            const QString key = query.queryItemValue(QStringLiteral("key"));
            responder.write(QStringLiteral("# %1\n\n%2\n")
                                .arg(key, rows.value(key).value(QStringLiteral("content")).toString())
                                .toUtf8(),
                            QByteArrayLiteral("text/markdown; charset=utf-8"));
        } else {
            write(responder, this->query(request));
        }
    } else if (path == QLatin1String("/api/dispatch") && request.method() == Method::Post) {
        auto shared = std::make_shared<QHttpServerResponder>(std::move(responder));
        dispatch(body, shared);
    } else {
        write(responder, {404, error(QStringLiteral("not found"))});
    }
    return true;
}

void MinimalServer::Http::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    QHttpServerResponder responder = makeResponder(request, socket);
    write(responder, {404, error(QStringLiteral("not found"))});
}

void MinimalServer::Http::write(QHttpServerResponder &responder, const Reply &reply)
{
    responder.write(QJsonDocument(reply.body), static_cast<QHttpServerResponder::StatusCode>(reply.status));
}

void MinimalServer::Http::writeTagged(QHttpServerResponder &responder, const QHttpServerRequest &request,
                                      const Reply &reply)
{
    const QJsonDocument document(reply.body);
    const QByteArray etag =
        '"' + QCryptographicHash::hash(document.toJson(), QCryptographicHash::Sha1).toHex().left(16) + '"';
    if (request.value(QByteArrayLiteral("if-none-match")) == etag) {
        responder.writeStatusLine(QHttpServerResponder::StatusCode::NotModified);
        responder.writeHeader(QByteArrayLiteral("ETag"), etag);
        responder.writeBody(QByteArray());
        return;
    }
    responder.write(document, {{QByteArrayLiteral("ETag"), etag}},
                    static_cast<QHttpServerResponder::StatusCode>(reply.status));
}

MinimalServer::Http::Reply MinimalServer::Http::list(const QHttpServerRequest &request) const
{
    const QString category = request.query().queryItemValue(QStringLiteral("category"), QUrl::FullyDecoded);
    const QString needle = request.query().queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
    QJsonArray listed;
    for (const QString &key : m_order) {
        const QJsonObject row = rows.value(key);
        const bool inCategory =
            category.isEmpty() || row.value(QStringLiteral("category")).toString() == category;
        bool matches = needle.isEmpty();
        for (const char *field : {"key", "target", "content", "category"})
            matches =
                matches || row.value(QLatin1String(field)).toString().contains(needle, Qt::CaseInsensitive);
        if (inCategory && matches)
            listed.append(row);
    }
    return {200, {{QStringLiteral("rows"), listed}}};
}

MinimalServer::Http::Reply MinimalServer::Http::create(const QJsonObject &row)
{
    const QString key = row.value(QStringLiteral("key")).toString();
    if (key.isEmpty() || row.value(QStringLiteral("type")).toString().isEmpty())
        return {400, error(QStringLiteral("key and type are required"))};
    if (rows.contains(key))
        return {409, error(QStringLiteral("exists"))};
    if (const QJsonArray findings = hygieneFindings(row); !findings.isEmpty())
        return {
            422,
            {{QStringLiteral("error"), QStringLiteral("hygiene")}, {QStringLiteral("findings"), findings}}};
    QJsonObject stored = withDefaults(row);
    const QString now = stamp();
    stored.insert(QStringLiteral("updated_at"), now);
    stored.insert(QStringLiteral("created_at"), now);
    rows.insert(key, stored);
    m_order.append(key);
    return {
        201,
        {{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("updated_at"), now}}};
}

MinimalServer::Http::Reply MinimalServer::Http::replace(const QString &key, QJsonObject row)
{
    if (!rows.contains(key))
        return {404, error(QStringLiteral("not found"))};
    row.insert(QStringLiteral("key"), key);
    if (const QJsonArray findings = hygieneFindings(row); !findings.isEmpty())
        return {
            422,
            {{QStringLiteral("error"), QStringLiteral("hygiene")}, {QStringLiteral("findings"), findings}}};
    QJsonObject stored = withDefaults(row);
    stored.insert(QStringLiteral("created_at"), rows.value(key).value(QStringLiteral("created_at")));
    stored.insert(QStringLiteral("updated_at"), stamp());
    rows.insert(key, stored);
    return {200,
            {{QStringLiteral("ok"), true},
             {QStringLiteral("key"), key},
             {QStringLiteral("updated_at"), stored.value(QStringLiteral("updated_at"))}}};
}

MinimalServer::Http::Reply MinimalServer::Http::patch(const QString &key, const QJsonObject &fields)
{
    QJsonObject row = rows.value(key);
    bool recognized = false;
    for (const QString &field : kAllowList) {
        if (fields.contains(field)) {
            row.insert(field, fields.value(field));
            recognized = true;
        }
    }
    if (!recognized)
        return {400, error(QStringLiteral("no recognized fields"))};
    if (!rows.contains(key))
        return {404, error(QStringLiteral("not found"))};
    // Only a patch that makes a compliant row non-compliant is refused.
    if (hygieneFindings(rows.value(key)).isEmpty() && !hygieneFindings(row).isEmpty())
        return {422,
                {{QStringLiteral("error"), QStringLiteral("hygiene")},
                 {QStringLiteral("findings"), hygieneFindings(row)}}};
    row.insert(QStringLiteral("updated_at"), stamp());
    rows.insert(key, row);
    return {200,
            {{QStringLiteral("ok"), true},
             {QStringLiteral("key"), key},
             {QStringLiteral("updated_at"), row.value(QStringLiteral("updated_at"))}}};
}

MinimalServer::Http::Reply MinimalServer::Http::remove(const QString &key)
{
    if (!rows.remove(key))
        return {404, error(QStringLiteral("not found"))};
    m_order.removeOne(key);
    return {200,
            {{QStringLiteral("ok"), true}, {QStringLiteral("key"), key}, {QStringLiteral("deleted"), 1}}};
}

MinimalServer::Http::Reply MinimalServer::Http::query(const QHttpServerRequest &request) const
{
    const QUrlQuery query = request.query();
    if (query.hasQueryItem(QStringLiteral("confirm"))) {
        const QString id = query.queryItemValue(QStringLiteral("confirm"));
        const auto found = m_invocations.constFind(id);
        const QString status = found == m_invocations.constEnd() ? QStringLiteral("UNKNOWN_INVOCATION")
                               : *found                          ? QStringLiteral("PROVEN_MATERIAL_RESULT")
                                        : QStringLiteral("RAN_WITHOUT_MATERIAL_RESULT");
        return {200,
                {{QStringLiteral("confirmed"), found != m_invocations.constEnd()},
                 {QStringLiteral("status"), status},
                 {QStringLiteral("invocation_id"), id}}};
    }
    if (query.queryItemValue(QStringLiteral("registry")) == QLatin1String("1")) {
        QJsonArray objects;
        for (const QString &key : m_order)
            objects.append(QJsonObject{{QStringLiteral("key"), key}});
        return {200, {{QStringLiteral("count"), objects.size()}, {QStringLiteral("objects"), objects}}};
    }
    return {404, error(QStringLiteral("not found"))};
}

void MinimalServer::Http::dispatch(const QJsonObject &call,
                                   const std::shared_ptr<QHttpServerResponder> &responder)
{
    const QString key = call.value(QStringLiteral("key")).toString();
    const QString body = call.value(QStringLiteral("body")).toString();
    for (auto it = call.constBegin(); strictDispatch && it != call.constEnd(); ++it) {
        if (!QStringList{QStringLiteral("key"), QStringLiteral("body"), QStringLiteral("shape")}.contains(
                it.key())) {
            write(*responder, {400,
                               {{QStringLiteral("error"), QStringLiteral("unknown field '%1'").arg(it.key())},
                                {QStringLiteral("field"), it.key()}}});
            return;
        }
    }
    if (!rows.contains(key)) {
        write(*responder, {404,
                           {{QStringLiteral("ok"), false},
                            {QStringLiteral("ran"), false},
                            {QStringLiteral("error"), QStringLiteral("unknown key ") + key}}});
        return;
    }
    const QJsonObject row = rows.value(key);
    const QString type = row.value(QStringLiteral("type")).toString();
    const QString target = row.value(QStringLiteral("target")).toString();
    const qsizetype space = target.indexOf(u' ');
    const QByteArray method = target.left(space).toLatin1();
    const QString url = substituteUrl(target.mid(space + 1), body.split(u'|'));
    if (call.value(QStringLiteral("shape")).toBool()) {
        write(*responder, {200,
                           {{QStringLiteral("ok"), true},
                            {QStringLiteral("shape"), true},
                            {QStringLiteral("runner"), type},
                            {QStringLiteral("request"),
                             QJsonObject{{QStringLiteral("method"), QString::fromLatin1(method)},
                                         {QStringLiteral("url"), url},
                                         {QStringLiteral("headers"), QJsonObject()},
                                         {QStringLiteral("body"), QString()}}},
                            {QStringLiteral("notes"), QJsonArray()}}});
        return;
    }
    auto answer = [this, responder](const QString &output) {
        const QString id = randomId(QStringLiteral("inv_"), 10);
        const bool material = !output.startsWith(QLatin1String("ERR:"));
        m_invocations.insert(id, material);
        write(*responder, {200,
                           {{QStringLiteral("ok"), material},
                            {QStringLiteral("ran"), true},
                            {QStringLiteral("trace"), randomId(QStringLiteral("t_"), 8)},
                            {QStringLiteral("result"), output},
                            {QStringLiteral("proof"),
                             QJsonObject{{QStringLiteral("ok"), true},
                                         {QStringLiteral("invocation_id"), id},
                                         {QStringLiteral("public_receipt"), QJsonValue::Null}}}}});
    };
    if (type == QLatin1String("fn") && target == QLatin1String("echo")) {
        answer(body);
        return;
    }
    if (type != QLatin1String("http")) {
        write(*responder,
              {422,
               {{QStringLiteral("ok"), false},
                {QStringLiteral("ran"), false},
                {QStringLiteral("error"), QStringLiteral("this server runs http rows and fn echo only")}}});
        return;
    }
    QNetworkReply *reply = m_network->sendCustomRequest(QNetworkRequest(QUrl(url)), method);
    connect(reply, &QNetworkReply::finished, this, [reply, answer] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QString text = QString::fromUtf8(reply->readAll());
        if (status == 0)
            answer(QStringLiteral("ERR: ") + reply->errorString());
        else
            answer(QStringLiteral("%1HTTP %2:%3")
                       .arg(status >= 400 ? QStringLiteral("ERR: ") : QString())
                       .arg(status)
                       .arg(text));
    });
}

MinimalServer::MinimalServer(QByteArray ownerKey)
    : m_thread(new QThread), m_http(new Http(std::move(ownerKey)))
{
    m_thread->setObjectName(QStringLiteral("minimal-server"));
    m_http->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, m_http, &QObject::deleteLater);
    m_thread->start();
}

MinimalServer::~MinimalServer()
{
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void MinimalServer::onServerThread(const std::function<void()> &work) const
{
    QMetaObject::invokeMethod(m_http, work, Qt::BlockingQueuedConnection);
}

bool MinimalServer::listen(QString *error)
{
    quint16 port = 0;
    onServerThread([&] { port = m_http->listen(QHostAddress::LocalHost, 0); });
    m_port = port;
    if (m_port == 0 && error)
        *error = QStringLiteral("the minimal server cannot listen on 127.0.0.1");
    return m_port != 0;
}

QUrl MinimalServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

QList<MinimalServer::Request> MinimalServer::requests() const
{
    QList<Request> recorded;
    onServerThread([&] { recorded = m_http->requests; });
    return recorded;
}

QList<MinimalServer::Request> MinimalServer::requests(const QByteArray &method,
                                                      const QString &pathAndQuery) const
{
    QList<Request> matching;
    for (const Request &request : requests()) {
        if (request.method == method && (pathAndQuery.isEmpty() || request.pathAndQuery == pathAndQuery))
            matching.append(request);
    }
    return matching;
}

void MinimalServer::clearRequests()
{
    onServerThread([this] { m_http->requests.clear(); });
}

QJsonObject MinimalServer::row(const QString &key) const
{
    QJsonObject row;
    onServerThread([&] { row = m_http->rows.value(key); });
    return row;
}

void MinimalServer::refuseUnknownDispatchMembers(bool refuse)
{
    onServerThread([&] { m_http->strictDispatch = refuse; });
}

void MinimalServer::offerETags(bool offer)
{
    onServerThread([&] { m_http->offersETags = offer; });
}

void MinimalServer::changeBehindClients(const QString &key, const QJsonObject &fields)
{
    onServerThread([&] {
        QJsonObject row = m_http->rows.value(key);
        for (auto it = fields.constBegin(); it != fields.constEnd(); ++it)
            row.insert(it.key(), it.value());
        row.insert(QStringLiteral("updated_at"), m_http->stamp());
        m_http->rows.insert(key, row);
    });
}
