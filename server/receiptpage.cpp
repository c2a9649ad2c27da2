#include "server/receiptpage.h"

#include <QJsonDocument>
#include <QStringList>

namespace {

QString cell(const QJsonValue &value)
{
    if (value.isString())
        return value.toString().toHtmlEscaped();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .toHtmlEscaped();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isNull() || value.isUndefined())
        return QStringLiteral("null");
    return QString::number(value.toDouble(), 'g', 17);
}

QString rows(const QJsonObject &object)
{
    QString html;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const bool block = it.value().isObject();
        html += QStringLiteral("<tr><th>%1</th><td>%2%3%4</td></tr>\n")
                    .arg(it.key().toHtmlEscaped(), block ? QStringLiteral("<pre>") : QString(),
                         cell(it.value()), block ? QStringLiteral("</pre>") : QString());
    }
    return html;
}

} // namespace

QByteArray ReceiptPage::render(const QJsonObject &confirm)
{
    const QString id = confirm.value(QStringLiteral("invocation_id")).toString();
    const QString status = confirm.value(QStringLiteral("status")).toString();
    const bool confirmed = confirm.value(QStringLiteral("confirmed")).toBool();
    QJsonObject summary = confirm;
    summary.remove(QStringLiteral("receipt"));
    const QString html =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<title>Receipt %1</title>"
                       "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto}"
                       "th{text-align:left;padding-right:1em;vertical-align:top}pre{margin:0}"
                       ".yes{color:#1a7f37}.no{color:#cf222e}</style></head><body>\n"
                       "<h1>Receipt <code>%1</code></h1>\n<p class=\"%2\"><strong>%3</strong> — %4</p>\n"
                       "<table>\n%5</table>\n<h2>Signed receipt</h2>\n<table>\n%6</table>\n"
                       "<p>Anyone holding the server's public key can verify this receipt offline "
                       "(<code>capdeskctl verify-receipt</code>).</p>\n</body></html>\n")
            .arg(id.toHtmlEscaped(), confirmed ? QStringLiteral("yes") : QStringLiteral("no"),
                 confirmed ? QStringLiteral("Confirmed") : QStringLiteral("Not confirmed"),
                 status.toHtmlEscaped(), rows(summary),
                 rows(confirm.value(QStringLiteral("receipt")).toObject()));
    return html.toUtf8();
}
