#pragma once

#include <QJsonObject>
#include <QString>

// "Copy as curl": a shape call's `request` object (http, or agent, whose request is the
// same method/url/headers/body) as one shell command that runs as it is. It only ever sees
// redacted shape output, and the row's credential is written as a reference to the
// environment variable named like its secret, so the command works wherever that variable
// is set and no secret value can reach the clipboard (SPEC §3 Auth):
//   bearer:NAME        -H "Authorization: Bearer $NAME"
//   basic:NAME         -u "$NAME"   (the value is user:password, which curl -u encodes)
//   query:NAME         "https://h/p?a=1&key=$NAME"   (query:PARAM=NAME: PARAM=$NAME)
// The reference stands where the engine puts the value, and replaces the shape's
// "[redacted]" there; a secret missing from the shape is referenced all the same, since
// the shell that runs the command may have it. A query value goes in as the shell expands
// it, without the percent-encoding the engine gives it.
//
// Quoting: a word without a reference is single-quoted, so $, `, ", \ and ! in it stay
// literal. A word with one is double-quoted as a whole when its other characters include
// none of those five; otherwise those parts are single-quoted and only the reference is
// double-quoted ('…/a$b?key='"$NAME"). Secret names are shell variable names
// ([A-Za-z_][A-Za-z0-9_]*) because AuthSpec accepts no other; an auth it cannot read
// leaves the credential as the shape has it, after a comment line that says why.
class CurlCommand final
{
public:
    // Empty when the object is not an http-shaped request (fn and flow shapes). `auth` is
    // the row's auth column.
    static QString fromShape(const QJsonObject &request, const QString &auth);
    // POSIX shell single-quoting: 'it'\''s'.
    static QString quote(const QString &text);
};
