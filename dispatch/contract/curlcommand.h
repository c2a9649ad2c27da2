#pragma once

#include <QJsonObject>
#include <QString>

// "Copy as curl": a shape call's `request` object (http, or agent, whose request is the
// same method/url/headers/body) as one copy-pasteable shell command. It only ever sees
// redacted shape output, so a credential stays "[redacted]" and never reaches the
// clipboard; the user pastes the real value in by hand.
class CurlCommand final
{
public:
    // Empty when the object is not an http-shaped request (fn and flow shapes).
    static QString fromShape(const QJsonObject &request);
    // POSIX shell single-quoting: 'it'\''s'.
    static QString quote(const QString &text);
};
