#include "dispatch/lint/lintreport.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

// RFC 4180: quote a field holding a comma, quote or line break, doubling its quotes.
QString csvField(QString text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n') && !text.contains(u'\r'))
        return text;
    text.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return u'"' + text + u'"';
}

} // namespace

QByteArray LintReport::toJson(const QList<LintFinding> &findings)
{
    QJsonArray array;
    for (const LintFinding &finding : findings)
        array.append(finding.toJson());
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QByteArray LintReport::toCsv(const QList<LintFinding> &findings)
{
    QString text = QStringLiteral("key,code,name,severity,field,message\r\n");
    for (const LintFinding &f : findings) {
        const QStringList fields{f.key, f.code, f.name, f.severity, f.field, f.message};
        QStringList quoted;
        for (const QString &field : fields)
            quoted.append(csvField(field));
        text += quoted.join(u',') + QStringLiteral("\r\n");
    }
    return text.toUtf8();
}
