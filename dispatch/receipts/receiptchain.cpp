#include "dispatch/receipts/receiptchain.h"

#include "dispatch/json/canonicaljson.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

const QString ReceiptChain::kPreChainWriter = u"pre-chain"_s;
const QString ReceiptChain::kGenesisHash = QString(64, u'0');
const QString ReceiptChain::kOpenedEventKind = u"RECEIPT_CHAIN_OPENED"_s;

QString ReceiptChain::newWriterId()
{
    const quint64 random = QRandomGenerator::system()->generate64();
    return u"w_"_s + u"%1"_s.arg(random, 16, 16, QLatin1Char('0'));
}

QString ReceiptChain::receiptHash(const QByteArray &receiptJson)
{
    return QString::fromLatin1(QCryptographicHash::hash(receiptJson, QCryptographicHash::Sha256).toHex());
}

QString ReceiptChain::linkHash(const QString &writer, qint64 seq, const QString &prevHash,
                               const QString &receiptHash)
{
    const QJsonObject link{{u"writer"_s, writer},
                           {u"seq"_s, seq},
                           {u"prev_hash"_s, prevHash},
                           {u"receipt_sha256"_s, receiptHash}};
    return QString::fromLatin1(
        QCryptographicHash::hash(CanonicalJson::serialize(link), QCryptographicHash::Sha256).toHex());
}
