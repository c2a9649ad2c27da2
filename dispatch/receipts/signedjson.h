#pragma once

#include <QByteArray>
#include <QJsonObject>

// What a signed document's `signature` member signs: the canonical JSON of the document
// without that member. Receipts, log anchors and chain heads are signed over it and the
// verifier checks against it, so they are all taken here; every stored signature depends
// on these bytes.
class SignedJson final
{
public:
    static QByteArray signedBytes(QJsonObject document);
};
