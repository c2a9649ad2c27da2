#include "dispatch/store/postgreslocation.h"

#include <QRegularExpression>
#include <QStringView>

#include <QSet>
#include <QUrl>
#include <QUrlQuery>
#include <algorithm>

namespace {

using Kind = StoreError::Kind;

StoreError invalid(const QString &why)
{
    return StoreError::make(Kind::Invalid, QStringLiteral("not a usable PostgreSQL URL: %1").arg(why));
}

// QPSQL joins the options into libpq's conninfo with spaces, unquoted: a value holding a
// space, quote, backslash or ';' would become options of its own.
bool isPlainValue(const QString &value)
{
    static const QRegularExpression plain(
        QRegularExpression::anchoredPattern(QStringLiteral(R"([^\s'";\\\x00-\x1f\x7f]+)")));
    return plain.match(value).hasMatch();
}

// libpq reads its connection string as C text: a NUL would cut off the options after it,
// a control character has no business in a name.
bool hasControlCharacter(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(),
                       [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

// The authority's user part, from the raw text: QUrl's own error message would quote a
// password back.
bool holdsPassword(const QString &text)
{
    const qsizetype start = text.indexOf(QLatin1String("://")) + 3;
    qsizetype end = text.size();
    for (const QChar stop : {u'/', u'?', u'#'}) {
        const qsizetype at = text.indexOf(stop, start);
        if (at >= 0)
            end = std::min(end, at);
    }
    const QStringView authority = QStringView(text).mid(start, end - start);
    const qsizetype at = authority.lastIndexOf(u'@');
    return at >= 0 && authority.left(at).contains(u':');
}

StoreError checkOption(const QString &name, const QString &value)
{
    static const QSet<QString> sslModes{QStringLiteral("disable"),   QStringLiteral("allow"),
                                        QStringLiteral("prefer"),    QStringLiteral("require"),
                                        QStringLiteral("verify-ca"), QStringLiteral("verify-full")};
    if (!isPlainValue(value))
        return invalid(QStringLiteral("option '%1' holds a space, quote, ';' or backslash").arg(name));
    if (name == QLatin1String("sslmode") && !sslModes.contains(value))
        return invalid(
            QStringLiteral("sslmode '%1' is not one of disable, allow, prefer, require, verify-ca, "
                           "verify-full")
                .arg(value));
    if (name == QLatin1String("connect_timeout")) {
        bool ok = false;
        const int seconds = value.toInt(&ok);
        if (!ok || seconds < 1 || seconds > 600)
            return invalid(QStringLiteral("connect_timeout must be 1 to 600 seconds, not '%1'").arg(value));
    }
    if (value.size() > 1024)
        return invalid(QStringLiteral("option '%1' is longer than 1024 characters").arg(name));
    return StoreError::none();
}

} // namespace

bool PostgresLocation::isUrl(const QString &text)
{
    return text.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
           || text.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

StoreResult<PostgresLocation> PostgresLocation::parse(const QString &text)
{
    static const QSet<QString> passedOn{QStringLiteral("sslmode"),         QStringLiteral("sslrootcert"),
                                        QStringLiteral("sslcert"),         QStringLiteral("sslkey"),
                                        QStringLiteral("sslcrl"),          QStringLiteral("connect_timeout"),
                                        QStringLiteral("application_name")};
    if (!isUrl(text))
        return invalid(QStringLiteral("it does not start with postgresql://"));
    if (text.size() > kMaxUrlLength)
        return invalid(QStringLiteral("it is longer than %1 characters").arg(kMaxUrlLength));
    if (holdsPassword(text))
        return invalid(QStringLiteral("it holds a password; put the password in ~/.pgpass (or the file "
                                      "PGPASSFILE names) or in the keychain, never in the URL"));
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return invalid(QStringLiteral("it is not a well-formed URL (postgresql://USER@HOST:PORT/DB)"));
    if (!url.password().isEmpty() || url.userInfo().contains(u':'))
        return invalid(QStringLiteral("it holds a password; put the password in ~/.pgpass (or the file "
                                      "PGPASSFILE names) or in the keychain, never in the URL"));
    if (url.hasFragment())
        return invalid(QStringLiteral("it has a #fragment"));

    PostgresLocation location;
    location.m_user = url.userName();
    location.m_host = url.host();
    location.m_database = url.path().mid(1);
    if (location.m_database.isEmpty() || location.m_database.contains(u'/'))
        return invalid(QStringLiteral("it names no database (postgresql://USER@HOST:PORT/DB)"));
    if (hasControlCharacter(location.m_database) || hasControlCharacter(location.m_user)
        || hasControlCharacter(location.m_host))
        return invalid(QStringLiteral("a user, host or database name holds a control character"));
    if (location.m_database.toUtf8().size() > 63 || location.m_user.toUtf8().size() > 63)
        return invalid(QStringLiteral("a database or user name is longer than PostgreSQL's 63 bytes"));
    if (url.port() != -1) {
        if (url.port() < 1 || url.port() > 65535)
            return invalid(QStringLiteral("port %1 is out of range").arg(url.port()));
        location.m_port = url.port();
    }
    const QUrlQuery query(url);
    QSet<QString> seen;
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (seen.contains(name))
            return invalid(QStringLiteral("option '%1' is given twice").arg(name));
        seen.insert(name);
        if (name == QLatin1String("host")) {
            if (!location.m_host.isEmpty())
                return invalid(QStringLiteral("it names a host twice (in the URL and as ?host=)"));
            if (!isPlainValue(value))
                return invalid(QStringLiteral("?host= holds a space, quote, ';' or backslash"));
            location.m_host = value;
            continue;
        }
        if (name == QLatin1String("password"))
            return invalid(QStringLiteral("it holds a password; put the password in ~/.pgpass (or the file "
                                          "PGPASSFILE names) or in the keychain, never in the URL"));
        if (!passedOn.contains(name))
            return invalid(QStringLiteral("option '%1' is not one Capdesk passes on (host, sslmode, "
                                          "sslrootcert, sslcert, sslkey, sslcrl, connect_timeout, "
                                          "application_name)")
                               .arg(name));
        if (StoreError error = checkOption(name, value); error.isError())
            return error;
        location.m_options.append({name, value});
    }
    if (location.m_host.isEmpty())
        return invalid(
            QStringLiteral("it names no host (postgresql://USER@HOST:PORT/DB, or ?host=/socket/dir)"));
    return location;
}

QString PostgresLocation::display() const
{
    const bool socket = m_host.startsWith(u'/');
    QString text = QStringLiteral("postgresql://");
    if (!m_user.isEmpty())
        text += QString::fromLatin1(QUrl::toPercentEncoding(m_user)) + u'@';
    if (!socket)
        text += m_host.contains(u':') ? u'[' + m_host + u']' : m_host;
    text += QStringLiteral(":%1/").arg(m_port) + QString::fromLatin1(QUrl::toPercentEncoding(m_database));
    QStringList options;
    if (socket)
        options.append(QStringLiteral("host=") + QString::fromLatin1(QUrl::toPercentEncoding(m_host, "/")));
    for (const auto &[name, value] : m_options)
        options.append(name + u'=' + QString::fromLatin1(QUrl::toPercentEncoding(value, "/")));
    if (!options.isEmpty())
        text += u'?' + options.join(u'&');
    return text;
}

QString PostgresLocation::keychainName() const
{
    return QStringLiteral("postgresql:%1@%2:%3/%4").arg(m_user, m_host).arg(m_port).arg(m_database);
}
