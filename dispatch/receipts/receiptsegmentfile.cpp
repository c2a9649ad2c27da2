#include "dispatch/receipts/receiptsegmentfile.h"

#include "dispatch/json/canonicaljson.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptchain.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

// One writer's stretch as the lines show it.
struct Stretch
{
    QString writer;
    qint64 fromSeq = 0;
    QString fromPrevHash;
    qint64 throughSeq = 0;
    QString throughHash;
};

class SegmentReader
{
public:
    SegmentReader(const QString &path, const QList<PublicKey> &keys, const QString &invocationId)
        : m_path(path), m_keys(keys), m_invocationId(invocationId)
    {}

    ReceiptSegmentFile::Check run()
    {
        QFile file(m_path);
        if (!file.open(QIODevice::ReadOnly))
            return fail(u"segment_unreadable"_s, u"cannot read %1: %2"_s.arg(m_path, file.errorString()));
        QByteArray line;
        if (!readLine(file, &line))
            return m_check;
        if (!readHeader(line))
            return m_check;
        m_hash.addData(line);
        QByteArray pending;
        bool havePending = false;
        while (!file.atEnd()) {
            if (!readLine(file, &line))
                return m_check;
            if (havePending) {
                m_hash.addData(pending);
                if (!readReceipt(pending))
                    return m_check;
            }
            pending = line;
            havePending = true;
        }
        if (file.error() != QFileDevice::NoError)
            return fail(u"segment_unreadable"_s, u"cannot read %1: %2"_s.arg(m_path, file.errorString()));
        if (!havePending)
            return fail(u"segment_truncated"_s, u"%1 ends before its seal"_s.arg(m_path));
        return checkSeal(pending);
    }

private:
    ReceiptSegmentFile::Check fail(const QString &code, const QString &message)
    {
        if (m_check.code.isEmpty()) {
            m_check.code = code;
            m_check.message = message;
        }
        return m_check;
    }

    bool readLine(QFile &file, QByteArray *line)
    {
        ++m_lineNumber;
        // readLine(n) reads at most n - 1 bytes: one more than the cap shows a longer line.
        // One buffer for every line: QIODevice::readLine(maxSize) would allocate the whole
        // cap per line, which made a 500,000-receipt file take minutes.
        if (m_buffer.isEmpty())
            m_buffer.resize(ReceiptSegmentFile::kMaxLineBytes + 2);
        const qint64 read = file.readLine(m_buffer.data(), m_buffer.size());
        *line = QByteArray(m_buffer.constData(), read < 0 ? 0 : read);
        if (line->size() > ReceiptSegmentFile::kMaxLineBytes) {
            fail(u"segment_malformed"_s, u"%1: line %2 is longer than %3 MiB"_s.arg(m_path)
                                             .arg(m_lineNumber)
                                             .arg(ReceiptSegmentFile::kMaxLineBytes >> 20));
            return false;
        }
        if (!line->endsWith('\n')) {
            if (file.error() != QFileDevice::NoError)
                fail(u"segment_unreadable"_s, u"cannot read %1: %2"_s.arg(m_path, file.errorString()));
            else
                fail(u"segment_truncated"_s,
                     u"%1: line %2 is cut off (no newline); the file ends early"_s.arg(m_path).arg(
                         m_lineNumber));
            return false;
        }
        return true;
    }

    QJsonObject objectOf(const QByteArray &line, bool *ok)
    {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        *ok = error.error == QJsonParseError::NoError && document.isObject();
        if (!*ok)
            fail(u"segment_malformed"_s, u"%1: line %2 is not a JSON object"_s.arg(m_path).arg(m_lineNumber));
        return document.object();
    }

    bool readHeader(const QByteArray &line)
    {
        bool ok = false;
        const QJsonObject header = objectOf(line, &ok);
        if (!ok || header.value(u"type"_s).toString() != ReceiptSegmentFile::kHeaderType) {
            m_check.code.clear();
            fail(u"segment_malformed"_s,
                 u"%1 is not a receipt segment (its first line is no %2 header)"_s.arg(
                     m_path, ReceiptSegmentFile::kHeaderType));
            return false;
        }
        if (header.value(u"version"_s).toInt(-1) != ReceiptSegmentFile::kVersion) {
            fail(u"segment_malformed"_s,
                 u"%1: segment version %2 is not one this Capdesk reads (%3)"_s.arg(m_path)
                     .arg(header.value(u"version"_s).toVariant().toString())
                     .arg(ReceiptSegmentFile::kVersion));
            return false;
        }
        return true;
    }

    bool readReceipt(const QByteArray &line)
    {
        // The receipt line being read is the one before the line just read.
        const qint64 number = m_lineNumber - 1;
        bool ok = false;
        const QJsonObject json = objectOf(line, &ok);
        if (!ok)
            return false;
        const QString writer = json.value(u"writer"_s).toString();
        const double seqNumber = json.value(u"seq"_s).toDouble(-1);
        const QString prevHash = json.value(u"prev_hash"_s).toString();
        const QString hash = json.value(u"hash"_s).toString();
        const QJsonValue receiptValue = json.value(u"receipt"_s);
        if (writer.isEmpty() || writer.size() > 64 || seqNumber < 1 || seqNumber > 9.0e15
            || seqNumber != qint64(seqNumber) || prevHash.size() != 64 || hash.size() != 64
            || !receiptValue.isString()) {
            fail(u"segment_malformed"_s,
                 u"%1: line %2 is not a receipt line (writer, seq, prev_hash, hash, receipt)"_s.arg(m_path)
                     .arg(number));
            return false;
        }
        const qint64 seq = qint64(seqNumber);
        const QByteArray receiptJson = receiptValue.toString().toUtf8();
        const QString recomputed =
            ReceiptChain::linkHash(writer, seq, prevHash, ReceiptChain::receiptHash(receiptJson));
        if (recomputed != hash) {
            fail(u"segment_altered"_s,
                 u"%1: line %2, receipt #%3 of chain %4, no longer hashes to its link"_s.arg(m_path)
                     .arg(number)
                     .arg(seq)
                     .arg(writer));
            return false;
        }
        if (!follow(writer, seq, prevHash, hash, number))
            return false;
        ++m_check.receipts;
        if (!m_invocationId.isEmpty() && !m_check.found && receiptJson.contains(m_invocationId.toUtf8())) {
            const QJsonObject receipt = QJsonDocument::fromJson(receiptJson).object();
            if (receipt.value(u"invocation_id"_s).toString() == m_invocationId)
                m_check.found = receipt;
        }
        return true;
    }

    bool follow(const QString &writer, qint64 seq, const QString &prevHash, const QString &hash,
                qint64 number)
    {
        if (m_stretches.isEmpty() || m_stretches.constLast().writer != writer) {
            if (m_seenWriters.contains(writer) || m_stretches.size() >= ReceiptSegmentSeal::kMaxRanges) {
                fail(u"segment_malformed"_s,
                     u"%1: line %2: chain %3 appears twice, apart, or after %4 others"_s.arg(m_path)
                         .arg(number)
                         .arg(writer)
                         .arg(ReceiptSegmentSeal::kMaxRanges));
                return false;
            }
            m_seenWriters.insert(writer);
            m_stretches.append(Stretch{writer, seq, prevHash, seq, hash});
            return true;
        }
        Stretch &stretch = m_stretches.last();
        if (seq != stretch.throughSeq + 1 || prevHash != stretch.throughHash) {
            fail(u"segment_chain_broken"_s,
                 u"%1: line %2: receipt #%3 of chain %4 does not follow #%5"_s.arg(m_path)
                     .arg(number)
                     .arg(seq)
                     .arg(writer)
                     .arg(stretch.throughSeq));
            return false;
        }
        stretch.throughSeq = seq;
        stretch.throughHash = hash;
        return true;
    }

    ReceiptSegmentFile::Check checkSeal(const QByteArray &line)
    {
        bool ok = false;
        const QJsonObject json = objectOf(line, &ok);
        if (!ok)
            return m_check;
        QString error;
        m_check.seal = ReceiptSegmentSeal::fromJson(json, &error);
        if (!m_check.seal) {
            if (json.contains(u"receipt"_s))
                return fail(u"segment_truncated"_s, u"%1 ends before its seal"_s.arg(m_path));
            return fail(u"segment_malformed"_s, u"%1: the seal: %2"_s.arg(m_path, error));
        }
        const ReceiptSegmentSeal &seal = *m_check.seal;
        if (!seal.selfSigned())
            return fail(u"segment_seal_invalid"_s,
                        u"%1: the seal's signature does not verify with the key it carries"_s.arg(m_path));
        const QString keyId = seal.keyId();
        if (std::none_of(m_keys.begin(), m_keys.end(),
                         [&keyId](const PublicKey &key) { return key.keyId() == keyId; }))
            return fail(
                u"segment_key_unknown"_s,
                u"%1 is sealed with key %2, which is not one of the keys it was checked against"_s.arg(
                    m_path, keyId));
        if (QString::fromLatin1(m_hash.result().toHex()) != seal.linesSha256)
            return fail(u"segment_altered"_s,
                        u"%1: its lines no longer hash to what the seal records"_s.arg(m_path));
        if (seal.receiptCount != m_check.receipts || !sameStretches(seal))
            return fail(
                u"segment_seal_mismatch"_s,
                u"%1: its receipts are not the %2 the seal names"_s.arg(m_path).arg(seal.receiptCount));
        return m_check;
    }

    bool sameStretches(const ReceiptSegmentSeal &seal) const
    {
        if (seal.ranges.size() != m_stretches.size())
            return false;
        for (qsizetype i = 0; i < m_stretches.size(); ++i) {
            const Stretch &lines = m_stretches.at(i);
            const ReceiptSegmentSeal::Range &sealed = seal.ranges.at(i);
            if (lines.writer != sealed.writer || lines.fromSeq != sealed.fromSeq
                || lines.fromPrevHash != sealed.fromPrevHash || lines.throughSeq != sealed.throughSeq
                || lines.throughHash != sealed.throughHash)
                return false;
        }
        return true;
    }

    QString m_path;
    const QList<PublicKey> &m_keys;
    QString m_invocationId;
    ReceiptSegmentFile::Check m_check;
    QCryptographicHash m_hash{QCryptographicHash::Sha256};
    QList<Stretch> m_stretches;
    QSet<QString> m_seenWriters;
    QByteArray m_buffer;
    qint64 m_lineNumber = 0;
};

} // namespace

QByteArray ReceiptSegmentFile::headerLine()
{
    return CanonicalJson::serialize(QJsonObject{{u"type"_s, kHeaderType}, {u"version"_s, kVersion}}) + '\n';
}

QByteArray ReceiptSegmentFile::receiptLine(const QString &writer, qint64 seq, const QString &prevHash,
                                           const QString &hash, const QByteArray &receiptJson)
{
    const QJsonObject line{{u"writer"_s, writer},
                           {u"seq"_s, seq},
                           {u"prev_hash"_s, prevHash},
                           {u"hash"_s, hash},
                           {u"receipt"_s, QString::fromUtf8(receiptJson)}};
    return CanonicalJson::serialize(line) + '\n';
}

bool ReceiptSegmentFile::looksLikeSegment(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // A header edited away still leaves a segment to report as one: its seal names the type
    // at the end, and a receipt line names its chain link at the start.
    constexpr qint64 kLook = 64 * 1024;
    const QByteArray head = file.read(kLook);
    QByteArray tail;
    if (file.size() > kLook && file.seek(file.size() - kLook))
        tail = file.read(kLook);
    const QByteArray type = kHeaderType.toUtf8();
    return head.contains(type) || tail.contains(type) || head.startsWith("{\"hash\":");
}

ReceiptSegmentFile::Check ReceiptSegmentFile::verify(const QString &path, const QList<PublicKey> &trustedKeys,
                                                     const QString &invocationId)
{
    return SegmentReader(path, trustedKeys, invocationId).run();
}
