#include "dispatch/receipts/signingkey.h"
#include "dispatch/receipts/signingkeysuccession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

constexpr auto kMadeAt = "2026-12-06T12:00:00.000Z";

QStringList idsOf(const QList<PublicKey> &keys)
{
    QStringList ids;
    for (const PublicKey &key : keys)
        ids.append(key.keyId());
    ids.sort();
    return ids;
}

// The text of `succession` with one member changed, as someone editing the file would.
QString edited(const SigningKeySuccession &succession, const QString &member, const QJsonValue &value)
{
    QJsonObject object = QJsonDocument::fromJson(succession.toText().toUtf8()).object();
    object.insert(member, value);
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

// SigningKeySuccession: which listed keys `log --verify` trusts besides the one held here.
// Keys are named by letter: a, b, c follow each other in that order.
class TestSigningKeySuccession : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void widen_data();
    void widen();
    void readBackAsWritten();
    void hostileTextIsRefused_data();
    void hostileTextIsRefused();
    void aForgedStatementLinksNothing();
    void aKeyRetiresOnlyByItsOwnWord_data();
    void aKeyRetiresOnlyByItsOwnWord();

private:
    const PublicKey &key(QChar letter) const { return m_public[letter.unicode() - u'a']; }
    // "b<a" : b follows a, signed by b alone; "b<<a": a signed for b too; "c<<b/a": c
    // follows b, and a signed for it.
    QList<SigningKeySuccession> successions(const QStringList &links) const;

    QList<SigningKey> m_keys;
    QList<PublicKey> m_public;
};

void TestSigningKeySuccession::initTestCase()
{
    for (int i = 0; i < 4; ++i) {
        m_keys.append(SigningKey::generate());
        m_public.append(m_keys.last().publicKey());
    }
}

QList<SigningKeySuccession> TestSigningKeySuccession::successions(const QStringList &links) const
{
    QList<SigningKeySuccession> made;
    for (const QString &link : links) {
        const int next = link.at(0).unicode() - u'a';
        const bool vouched = link.mid(1, 2) == u"<<"_s;
        const QStringList parts = link.mid(vouched ? 3 : 2).split(u'/');
        QList<PublicKey> follows;
        for (const QChar letter : parts.constFirst())
            follows.append(key(letter));
        const int previous = parts.constLast().back().unicode() - u'a';
        made.append(SigningKeySuccession::make(m_keys.at(next), follows,
                                               vouched ? &m_keys.at(previous) : nullptr,
                                               QString::fromLatin1(kMadeAt)));
    }
    return made;
}

void TestSigningKeySuccession::widen_data()
{
    QTest::addColumn<QStringList>("links");
    QTest::addColumn<QString>("held");
    QTest::addColumn<QString>("trusted");
    QTest::addRow("no succession: the held key alone") << QStringList{} << u"a"_s << u"a"_s;
    QTest::addRow("the new key held trusts what it follows") << QStringList{u"b<a"_s} << u"b"_s << u"ab"_s;
    QTest::addRow("the old key held, not vouched: the new one is a stranger")
        << QStringList{u"b<a"_s} << u"a"_s << u"a"_s;
    QTest::addRow("the old key held, vouched: the new one is trusted")
        << QStringList{u"b<<a"_s} << u"a"_s << u"ab"_s;
    QTest::addRow("three keys, each vouched: the first reaches the last")
        << QStringList{u"b<<a"_s, u"c<<ab"_s} << u"a"_s << u"abc"_s;
    QTest::addRow("three keys, the last held: it follows both")
        << QStringList{u"b<a"_s, u"c<ab"_s} << u"c"_s << u"abc"_s;
    QTest::addRow("the middle key held reaches both ways")
        << QStringList{u"b<a"_s, u"c<<ab"_s} << u"b"_s << u"abc"_s;
    QTest::addRow("a succession apart from the held key's stays out")
        << QStringList{u"b<<a"_s, u"d<<c"_s} << u"a"_s << u"ab"_s;
    QTest::addRow("a vouch by a key it does not follow counts for nothing")
        << QStringList{u"c<<b/a"_s} << u"a"_s << u"a"_s;
}

void TestSigningKeySuccession::widen()
{
    QFETCH(QStringList, links);
    QFETCH(QString, held);
    QFETCH(QString, trusted);
    QList<PublicKey> expected;
    for (const QChar letter : trusted)
        expected.append(key(letter));
    const QList<PublicKey> widened = SigningKeySuccession::widen({key(held.at(0))}, successions(links));
    QCOMPARE(idsOf(widened), idsOf(expected));
}

void TestSigningKeySuccession::readBackAsWritten()
{
    const SigningKeySuccession written = successions({u"c<<ab"_s}).constFirst();
    const std::optional<SigningKeySuccession> read =
        SigningKeySuccession::fromText(written.toText(), key(u'c').keyId());
    QVERIFY(read);
    QCOMPARE(read->key().keyId(), key(u'c').keyId());
    QCOMPARE(idsOf(read->follows()), idsOf({key(u'a'), key(u'b')}));
    QCOMPARE(read->vouchedBy(), key(u'b').keyId());
    QCOMPARE(idsOf(SigningKeySuccession::widen({key(u'b')}, {*read})),
             idsOf({key(u'a'), key(u'b'), key(u'c')}));
    QCOMPARE(read->toText(), written.toText());
}

void TestSigningKeySuccession::hostileTextIsRefused_data()
{
    const SigningKeySuccession good = successions({u"b<<a"_s}).constFirst();
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("keyId");
    const QString b = key(u'b').keyId();
    QTest::addRow("not JSON") << u"{"_s << b;
    QTest::addRow("empty") << QString() << b;
    QTest::addRow("another row's statement") << good.toText() << key(u'a').keyId();
    QTest::addRow("another type") << edited(good, u"type"_s, u"capdesk.receipt_chain_head"_s) << b;
    QTest::addRow("a key id that is not its key's") << edited(good, u"key_id"_s, key(u'c').keyId()) << b;
    QTest::addRow("a public key that is no key") << edited(good, u"public_key"_s, u"-----BEGIN"_s) << b;
    QTest::addRow("a followed key whose id is not its own")
        << edited(good, u"follows"_s,
                  QJsonArray{QJsonObject{{u"key_id"_s, key(u'c').keyId()},
                                         {u"public_key"_s, QString::fromLatin1(key(u'a').pem())}}})
        << b;
    QJsonArray many;
    for (qsizetype i = 0; i <= SigningKeySuccession::kMaxFollowed; ++i)
        many.append(QJsonObject{{u"key_id"_s, key(u'a').keyId()},
                                {u"public_key"_s, QString::fromLatin1(key(u'a').pem())}});
    QTest::addRow("more followed keys than any directory has") << edited(good, u"follows"_s, many) << b;
    QTest::addRow("longer than any statement")
        << edited(good, u"made_at"_s, QString(SigningKeySuccession::kMaxTextLength, u'x')) << b;
}

void TestSigningKeySuccession::hostileTextIsRefused()
{
    QFETCH(QString, text);
    QFETCH(QString, keyId);
    QVERIFY(!SigningKeySuccession::fromText(text, keyId));
}

// Whoever can write the file can change a statement, but not sign it again.
void TestSigningKeySuccession::aForgedStatementLinksNothing()
{
    const SigningKeySuccession good = successions({u"b<<a"_s}).constFirst();
    const QJsonArray strangers{QJsonObject{{u"key_id"_s, key(u'd').keyId()},
                                           {u"public_key"_s, QString::fromLatin1(key(u'd').pem())}},
                               QJsonObject{{u"key_id"_s, key(u'a').keyId()},
                                           {u"public_key"_s, QString::fromLatin1(key(u'a').pem())}}};
    const std::optional<SigningKeySuccession> forged =
        SigningKeySuccession::fromText(edited(good, u"follows"_s, strangers), key(u'b').keyId());
    QVERIFY(forged);
    QCOMPARE(idsOf(SigningKeySuccession::widen({key(u'b')}, {*forged})), idsOf({key(u'b')}));
    QCOMPARE(idsOf(SigningKeySuccession::widen({key(u'a')}, {*forged})), idsOf({key(u'a')}));
    const std::optional<SigningKeySuccession> redated = SigningKeySuccession::fromText(
        edited(good, u"made_at"_s, u"2020-01-01T00:00:00.000Z"_s), key(u'b').keyId());
    QVERIFY(redated);
    QCOMPARE(idsOf(SigningKeySuccession::widen({key(u'b')}, {*redated})), idsOf({key(u'b')}));
}

void TestSigningKeySuccession::aKeyRetiresOnlyByItsOwnWord_data()
{
    QTest::addColumn<QStringList>("links");
    QTest::addColumn<QString>("retired"); // keys a successor retires
    QTest::addRow("the old key signed for the new one") << QStringList{u"b<<a"_s} << u"a"_s;
    // Made where the old key was lost, or by whoever can write the file: stops nothing.
    QTest::addRow("the new key alone says it follows") << QStringList{u"b<a"_s} << QString();
    QTest::addRow("signed by another key than the one followed") << QStringList{u"c<<b/a"_s} << QString();
    QTest::addRow("each key of a line of three") << QStringList{u"b<<a"_s, u"c<<ab/b"_s} << u"ab"_s;
}

void TestSigningKeySuccession::aKeyRetiresOnlyByItsOwnWord()
{
    QFETCH(QStringList, links);
    QFETCH(QString, retired);
    const QList<SigningKeySuccession> made = successions(links);
    for (const QChar letter : QStringLiteral("abcd")) {
        const std::optional<PublicKey> successor = SigningKeySuccession::successorOf(key(letter), made);
        QVERIFY2(bool(successor) == retired.contains(letter), qPrintable(QString(letter)));
    }
}

QTEST_GUILESS_MAIN(TestSigningKeySuccession)
#include "tst_signingkeysuccession.moc"
