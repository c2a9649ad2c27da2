#pragma once

#include "dispatch/core/storeerror.h"

#include <QByteArrayView>

// Strict UTF-8 validation. QString::fromUtf8 quietly turns bad bytes into U+FFFD; input
// that will be stored must be refused instead, naming where it went wrong.
namespace Utf8Text {

// Offset of the first byte that is not well-formed UTF-8 (overlong forms, surrogates and
// code points past U+10FFFF included), or -1.
qsizetype firstInvalidByte(QByteArrayView bytes);
// None, or Invalid with "line N: invalid UTF-8".
StoreError check(QByteArrayView bytes);

} // namespace Utf8Text
