#include "dispatch/core/utf8text.h"

#include <algorithm>

namespace Utf8Text {

qsizetype firstInvalidByte(QByteArrayView bytes)
{
    const auto *data = reinterpret_cast<const uchar *>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar lead = data[i];
        if (lead < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        uchar low = 0x80; // the range of the second byte, narrowed where the lead needs it
        uchar high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + length > n || data[i + 1] < low || data[i + 1] > high)
            return i;
        for (int k = 2; k < length; ++k) {
            if (data[i + k] < 0x80 || data[i + k] > 0xBF)
                return i;
        }
        i += length;
    }
    return -1;
}

StoreError check(QByteArrayView bytes)
{
    const qsizetype bad = firstInvalidByte(bytes);
    if (bad < 0)
        return StoreError::none();
    const auto line = std::count(bytes.begin(), bytes.begin() + bad, '\n') + 1;
    return StoreError::make(StoreError::Kind::Invalid, QStringLiteral("line %1: invalid UTF-8").arg(line));
}

} // namespace Utf8Text
