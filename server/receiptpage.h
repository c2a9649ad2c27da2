#pragma once

#include <QByteArray>
#include <QJsonObject>

// GET /receipt/inv_…: the confirm object (DirectoryLedger::confirm) as a small page a
// person can read. Every value is HTML-escaped: receipts carry keys and actors that
// callers chose.
class ReceiptPage final
{
public:
    static QByteArray render(const QJsonObject &confirm);
};
