#include "dispatch/receipts/receiptfilecheck.h"

#include "dispatch/receipts/publickey.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QMap>

using namespace Qt::StringLiterals;

QList<std::pair<QString, QJsonValue>> ReceiptFileCheck::flatten(const QJsonObject &receipt)
{
    QList<std::pair<QString, QJsonValue>> fields;
    for (auto it = receipt.begin(); it != receipt.end(); ++it) {
        if (!it.value().isObject()) {
            fields.append({it.key(), it.value()});
            continue;
        }
        const QJsonObject nested = it.value().toObject();
        for (auto inner = nested.begin(); inner != nested.end(); ++inner)
            fields.append({it.key() + u'.' + inner.key(), inner.value()});
    }
    return fields;
}

ReceiptFileCheck::Outcome ReceiptFileCheck::check(const QByteArray &fileBytes, const QList<PublicKey> &keys,
                                                  const std::optional<QJsonObject> &stored)
{
    Outcome outcome;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(fileBytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        outcome.error = u"not JSON: "_s + parseError.errorString();
        return outcome;
    }
    if (!document.isObject()) {
        outcome.error = u"not a receipt: the file holds no JSON object"_s;
        return outcome;
    }
    outcome.receipt = document.object();
    outcome.result = ReceiptVerifier::check(outcome.receipt, keys);
    QMap<QString, QJsonValue> mine;
    for (const auto &[name, value] : flatten(outcome.receipt)) {
        mine.insert(name, value);
        outcome.fields.append(name);
    }
    if (!stored)
        return outcome;
    outcome.comparedWithStored = true;
    QMap<QString, QJsonValue> theirs;
    for (const auto &[name, value] : flatten(*stored))
        theirs.insert(name, value);
    for (auto it = mine.cbegin(); it != mine.cend(); ++it) {
        if (!theirs.contains(it.key()) || theirs.value(it.key()) != it.value())
            outcome.differing.append(it.key());
    }
    for (auto it = theirs.cbegin(); it != theirs.cend(); ++it) {
        if (!mine.contains(it.key()))
            outcome.differing.append(it.key());
    }
    outcome.differing.sort();
    return outcome;
}
