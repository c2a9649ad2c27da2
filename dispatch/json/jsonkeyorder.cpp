#include "dispatch/json/jsonkeyorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

namespace {

// A cursor over text that Qt has already accepted as JSON, so only structure is tracked.
class Scanner
{
public:
    explicit Scanner(QStringView text) : m_text(text) {}

    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text.at(m_pos).isSpace())
            ++m_pos;
    }
    QChar peek()
    {
        skipSpace();
        return m_pos < m_text.size() ? m_text.at(m_pos) : QChar();
    }
    bool take(QChar c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    // A string token, decoded by Qt so escapes read as the key they spell.
    QString string()
    {
        skipSpace();
        const qsizetype start = m_pos;
        ++m_pos;
        while (m_pos < m_text.size() && m_text.at(m_pos) != u'"')
            m_pos += m_text.at(m_pos) == u'\\' ? 2 : 1;
        ++m_pos;
        const QString literal = u'[' + m_text.mid(start, m_pos - start).toString() + u']';
        return QJsonDocument::fromJson(literal.toUtf8()).array().at(0).toString();
    }
    // Skips one value of any kind.
    void skipValue()
    {
        const QChar c = peek();
        if (c == u'"') {
            string();
            return;
        }
        if (c != u'{' && c != u'[') {
            while (m_pos < m_text.size() && !QStringView(u",]}").contains(m_text.at(m_pos)))
                ++m_pos;
            return;
        }
        int depth = 0;
        while (m_pos < m_text.size()) {
            const QChar here = m_text.at(m_pos);
            if (here == u'"') {
                string();
                continue;
            }
            ++m_pos;
            if (here == u'{' || here == u'[')
                ++depth;
            else if ((here == u'}' || here == u']') && --depth == 0)
                return;
        }
    }
    // The keys of the object here, each value skipped, or handed to `visit` when it returns true.
    template<typename Visit>
    QStringList objectKeys(Visit visit)
    {
        QStringList keys;
        if (!take(u'{'))
            return keys;
        while (peek() == u'"') {
            const QString key = string();
            keys.append(key);
            take(u':');
            if (!visit(key))
                skipValue();
            take(u',');
        }
        take(u'}');
        return keys;
    }

private:
    QStringView m_text;
    qsizetype m_pos = 0;
};

} // namespace

QStringList JsonKeyOrder::keysOf(QStringView text, const QString &member)
{
    if (!QJsonDocument::fromJson(text.toUtf8()).isObject())
        return {};
    Scanner scanner(text);
    QStringList found;
    scanner.objectKeys([&](const QString &key) {
        // A duplicate member: Qt keeps the last one, and so does this.
        if (key != member)
            return false;
        found.clear();
        if (scanner.peek() != u'{')
            return false;
        found = scanner.objectKeys([](const QString &) { return false; });
        return true;
    });
    return found;
}
