#pragma once

#include <QByteArray>
#include <QJsonValue>

// The one byte form of a JSON value that hashes and signatures are taken over (SPEC §6):
// the same value always gives the same bytes, whatever order or spacing it arrived in.
// QJsonDocument's own writer is not used because its key order and number format are
// Qt's to change between releases, and a fingerprint must not move with a Qt upgrade.
//
// This is not RFC 8785 (JCS): numbers are written differently (below), and a lone
// surrogate is not refused. Every stored signature and pinned fingerprint depends on these
// exact bytes, so the form stays as it is; a JCS verifier will not reproduce it.
//
// - Object members are sorted by their keys' UTF-16 code units, the order JavaScript's
//   default sort gives (so a key with a character above U+FFFF, stored as a surrogate
//   pair starting at 0xD800, sorts before one with U+E000…U+FFFF); upper case sorts
//   before lower case.
// - No white space outside strings.
// - Strings escape only what JSON requires: '"', '\\', and control characters below
//   U+0020, as \b \f \n \r \t where JSON has a short form, else \u00xx in lower case.
//   Everything else, non-ASCII included, is written as UTF-8. A lone surrogate (which
//   Qt's parser lets through from a "\ud800" escape) has no UTF-8 form; it is written as
//   '?' by QString::toUtf8, so such a string is not told apart from one holding '?'.
// - A number with an integral value in the signed 64-bit range is written as digits
//   without a decimal point or exponent (-0 as 0), whether Qt holds it as an integer or a
//   double, so 1, 1.0 and 1e0 agree. Any other number is written in the shortest form
//   that reads back to the same double, in QByteArray::number's 'g' format: fixed or
//   exponent notation, whichever is shorter, exponents with a sign and at least two
//   digits (1.5, 1e+21, 1e-07). JavaScript spells exponents without the padding
//   (1e-7) and writes fixed notation up to 1e21, so a verifier in another language must
//   follow this rule, not JSON.stringify.
// - NaN and infinities cannot come out of JSON text; a QJsonValue built from one in code
//   is written as null, as QJsonDocument and JavaScript's JSON.stringify write it.
// - An undefined QJsonValue is written as null.
class CanonicalJson final
{
public:
    static QByteArray serialize(const QJsonValue &value);
    // One string in this form, for writers that assemble canonical text from parts (a
    // row's JSON, the event log's hash input) without building a QJsonValue first.
    static void appendString(const QString &text, QByteArray *out);

private:
    static void write(const QJsonValue &value, QByteArray *out);
    static void writeNumber(const QJsonValue &value, QByteArray *out);
};
