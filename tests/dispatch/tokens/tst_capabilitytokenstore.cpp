#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/tokens/capabilitygate.h"
#include "dispatch/tokens/capabilitytokenstore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

// SPEC §7 token storage: the value is handed out once and only its SHA-256 is kept,
// lookup goes by value, revocation is final, every change lands in the event log, and a
// spec that cannot be stored leaves the file as it was.
using Edit = std::function<void(CapabilityToken &)>;
Q_DECLARE_METATYPE(Edit)

namespace {

Row echoRow()
{
    Row row;
    row.key = u"ECHO_BACK"_s;
    row.type = u"fn"_s;
    row.target = u"echo"_s;
    row.category = u"text"_s;
    row.updatedAt = u"2026-01-02T03:04:05.678Z"_s;
    return row;
}

CapabilityToken spec()
{
    CapabilityToken token;
    token.label = u"planner"_s;
    token.audience = u"agent:planner"_s;
    token.allowedKeys = {u"ECHO_BACK"_s};
    return token;
}

} // namespace

class TestCapabilityTokenStore : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void valueIsShownOnceAndOnlyItsHashIsStored();
    void findByValue();
    void listKeepsEveryField();
    void revokeIsFinalAndTheGateSaysRevoked();
    void theCreatedEventHoldsEveryLimit();
    void eventsNameTheTokenButNeverItsValue();
    void badSpecsAreRefusedAndNothingIsWritten_data();
    void badSpecsAreRefusedAndNothingIsWritten();

private:
    QList<LogEvent> tokenEvents() const;
    QByteArray fileBytes() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_directory;
    std::unique_ptr<CapabilityTokenStore> m_tokens;
};

void TestCapabilityTokenStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    StoreResult<std::shared_ptr<SqlDirectoryStore>> opened =
        SqlDirectoryStore::open(m_dir->filePath(u"tokens.db"_s));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_directory = opened.value();
    QVERIFY(!m_directory->importRows({echoRow()}).isError());
    m_tokens = std::make_unique<CapabilityTokenStore>(m_directory->database());
}

void TestCapabilityTokenStore::cleanup()
{
    m_tokens.reset();
    m_directory.reset();
    m_dir.reset();
}

QList<LogEvent> TestCapabilityTokenStore::tokenEvents() const
{
    const StoreResult<QList<LogEvent>> events = EventLog(m_directory->database()).events();
    QList<LogEvent> tokenEvents;
    for (const LogEvent &event : events.value())
        if (event.kind.startsWith(u"TOKEN_"_s))
            tokenEvents.append(event);
    return tokenEvents;
}

// The file and its write-ahead log: a value that reached either would be on disk.
QByteArray TestCapabilityTokenStore::fileBytes() const
{
    QByteArray bytes;
    const QDir dir(m_dir->path());
    for (const QString &name : dir.entryList(QDir::Files)) {
        QFile file(dir.filePath(name));
        if (file.open(QIODevice::ReadOnly))
            bytes += file.readAll();
    }
    return bytes;
}

void TestCapabilityTokenStore::valueIsShownOnceAndOnlyItsHashIsStored()
{
    const StoreResult<CapabilityTokenStore::Minted> minted = m_tokens->create(spec(), u"owner:local"_s);
    QVERIFY2(minted.ok(), qPrintable(minted.error().message));
    const QString value = minted.value().value;
    QVERIFY2(QRegularExpression(u"^cdt_[A-Za-z0-9_-]{43}$"_s).match(value).hasMatch(), qPrintable(value));
    QVERIFY(QRegularExpression(u"^tok_[0-9a-z]{8}$"_s).match(minted.value().token.id).hasMatch());
    QVERIFY(minted.value().token.revokedAt.isEmpty());
    QVERIFY(!minted.value().token.createdAt.isEmpty());

    const QString other = m_tokens->create(spec(), u"owner:local"_s).value().value;
    QVERIFY(other != value);

    const QByteArray bytes = fileBytes();
    QVERIFY(!bytes.isEmpty());
    QVERIFY(!bytes.contains(value.toUtf8()));
    QVERIFY(!bytes.contains(value.mid(4).toUtf8()));
    QVERIFY(bytes.contains(CapabilityTokenStore::hashOf(value).toUtf8()));
    QCOMPARE(CapabilityTokenStore::hashOf(value).size(), 64);
}

void TestCapabilityTokenStore::findByValue()
{
    const CapabilityTokenStore::Minted minted = m_tokens->create(spec(), u"owner:local"_s).value();
    const StoreResult<CapabilityToken> found = m_tokens->findByValue(minted.value);
    QVERIFY(found.ok());
    QCOMPARE(found.value().toJson(), minted.token.toJson());

    QString altered = minted.value;
    altered[10] = altered.at(10) == u'A' ? u'B' : u'A';
    for (const QString &wrong :
         {altered, minted.token.id, CapabilityTokenStore::hashOf(minted.value), QString()}) {
        const StoreResult<CapabilityToken> missing = m_tokens->findByValue(wrong);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, StoreError::Kind::NotFound);
        QCOMPARE(missing.error().message, u"unknown token"_s);
    }
}

void TestCapabilityTokenStore::listKeepsEveryField()
{
    QCOMPARE(m_tokens->list().value().size(), 0);
    CapabilityToken full = spec();
    full.ownerGate = true;
    full.riskCeiling = u"high"_s;
    full.fixedBody = u"37.77|-122.42"_s;
    full.payloadCeiling = 64;
    full.expiresAt = u"2099-01-01T00:00:00.000Z"_s;
    QVERIFY(!full.pinToRow(echoRow()).isError());
    CapabilityToken categories = spec();
    categories.label = QString(); // the column is NOT NULL; no label is ""
    categories.allowedKeys.clear();
    categories.allowedCategories = {u"text"_s, u"time"_s};

    const CapabilityToken first = m_tokens->create(full, u"owner:local"_s).value().token;
    const CapabilityToken second = m_tokens->create(categories, u"owner:local"_s).value().token;
    const StoreResult<QList<CapabilityToken>> listed = m_tokens->list();
    QVERIFY(listed.ok());
    QCOMPARE(listed.value().size(), 2);
    QCOMPARE(listed.value().at(0).toJson(), first.toJson());
    QCOMPARE(listed.value().at(1).toJson(), second.toJson());
    QCOMPARE(listed.value().at(1).label, u""_s);
    QCOMPARE(listed.value().at(0).pinnedContract, ContractFingerprint::of(echoRow()));
    QVERIFY(!listed.value().at(1).fixedBody.has_value());
    QVERIFY(!listed.value().at(1).payloadCeiling.has_value());
}

void TestCapabilityTokenStore::revokeIsFinalAndTheGateSaysRevoked()
{
    const CapabilityTokenStore::Minted minted = m_tokens->create(spec(), u"owner:local"_s).value();
    const CapabilityCall call{u"ECHO_BACK"_s, u"hi"_s, u"agent:planner"_s, false};
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(CapabilityGate::check(m_tokens->findByValue(minted.value).value(), call, echoRow(), now).allowed);

    QVERIFY(!m_tokens->revoke(minted.token.id, u"owner:local"_s).isError());
    const CapabilityToken revoked = m_tokens->findByValue(minted.value).value();
    QVERIFY(revoked.isRevoked());
    QCOMPARE(m_tokens->list().value().at(0).status(now), u"revoked"_s);
    QCOMPARE(CapabilityGate::check(revoked, call, echoRow(), now).reason, u"revoked"_s);

    const StoreError again = m_tokens->revoke(minted.token.id, u"owner:local"_s);
    QCOMPARE(again.kind, StoreError::Kind::Invalid);
    QVERIFY2(again.message.contains(u"already revoked"_s), qPrintable(again.message));
    QCOMPARE(m_tokens->revoke(u"tok_zzzzzzzz"_s, u"owner:local"_s).kind, StoreError::Kind::NotFound);
    QCOMPARE(tokenEvents().size(), 2); // the refused revocations wrote nothing
}

// What a token lets through is in its TOKEN_CREATED event; a fixed body by its size only,
// since it is the caller's data and a hash of a short one would give it away.
void TestCapabilityTokenStore::theCreatedEventHoldsEveryLimit()
{
    CapabilityToken limited = spec();
    limited.fixedBody = u"lat=37.77|lon=-122.42 caf\u00e9"_s;
    limited.payloadCeiling = 64;
    QVERIFY(m_tokens->create(limited, u"owner:local"_s).ok());
    const QJsonObject detail = tokenEvents().at(0).detail;
    QCOMPARE(detail.value(u"payload_ceiling"_s).toInteger(), 64);
    QCOMPARE(detail.value(u"fixed_body"_s).toObject(), QJsonObject({{u"bytes"_s, 27}}));
    const QByteArray text = QJsonDocument(detail).toJson();
    QVERIFY(!text.contains("37.77"));
    QVERIFY(!text.contains(
        QCryptographicHash::hash(limited.fixedBody->toUtf8(), QCryptographicHash::Sha256).toHex()));
}

void TestCapabilityTokenStore::eventsNameTheTokenButNeverItsValue()
{
    CapabilityToken pinned = spec();
    QVERIFY(!pinned.pinToRow(echoRow()).isError());
    const CapabilityTokenStore::Minted minted = m_tokens->create(pinned, u"owner:local"_s).value();
    QVERIFY(!m_tokens->revoke(minted.token.id, u"owner:terminal-key"_s).isError());

    const QList<LogEvent> events = tokenEvents(); // newest first
    QCOMPARE(events.size(), 2);
    const LogEvent &created = events.at(1);
    QCOMPARE(created.kind, u"TOKEN_CREATED"_s);
    QCOMPARE(created.action, u"create"_s);
    QCOMPARE(created.actor, u"owner:local"_s);
    QCOMPARE(created.detail.value(u"token_id"_s).toString(), minted.token.id);
    QCOMPARE(created.detail.value(u"label"_s).toString(), u"planner"_s);
    QCOMPARE(created.detail.value(u"audience"_s).toString(), u"agent:planner"_s);
    QCOMPARE(created.detail.value(u"risk_ceiling"_s).toString(), u"low"_s);
    QCOMPARE(created.detail.value(u"pinned"_s).toString(), ContractFingerprint::of(echoRow()));
    QCOMPARE(created.detail.value(u"scope"_s).toObject().value(u"keys"_s).toArray().first().toString(),
             u"ECHO_BACK"_s);
    QVERIFY(created.detail.value(u"fixed_body"_s).isNull());
    QVERIFY(created.detail.value(u"payload_ceiling"_s).isNull());
    const LogEvent &revoked = events.at(0);
    QCOMPARE(revoked.kind, u"TOKEN_REVOKED"_s);
    QCOMPARE(revoked.action, u"revoke"_s);
    QCOMPARE(revoked.actor, u"owner:terminal-key"_s);
    QCOMPARE(revoked.detail, QJsonObject({{u"token_id"_s, minted.token.id}}));

    for (const LogEvent &event : events) {
        const QByteArray text = QJsonDocument(EventLog::toJson(event)).toJson();
        QVERIFY(!text.contains(minted.value.toUtf8()));
        QVERIFY(!text.contains(CapabilityTokenStore::hashOf(minted.value).toUtf8()));
    }
    QVERIFY(EventLog(m_directory->database()).verify().value().intact);
}

void TestCapabilityTokenStore::badSpecsAreRefusedAndNothingIsWritten_data()
{
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("error");

    QTest::addRow("no audience") << Edit([](CapabilityToken &t) { t.audience.clear(); })
                                 << u"audience: required"_s;
    QTest::addRow("no scope") << Edit([](CapabilityToken &t) { t.allowedKeys.clear(); })
                              << u"scope: at least one key or category"_s;
    QTest::addRow("risk ceiling") << Edit([](CapabilityToken &t) { t.riskCeiling = u"none"_s; })
                                  << u"risk_ceiling: must be low or high, not 'none'"_s;
    QTest::addRow("negative ceiling") << Edit([](CapabilityToken &t) { t.payloadCeiling = -5; })
                                      << u"payload_ceiling: must be 0 or more bytes"_s;
    QTest::addRow("expiry unparsable") << Edit([](CapabilityToken &t) { t.expiresAt = u"30d"_s; })
                                       << u"expires_at: '30d' is not an ISO-8601 time"_s;
    QTest::addRow("expiry passed") << Edit([](CapabilityToken &t) {
        t.expiresAt = u"2020-01-01T00:00:00.000Z"_s;
    }) << u"expires_at: 2020-01-01T00:00:00.000Z has already passed"_s;
    QTest::addRow("pinned garbage") << Edit([](CapabilityToken &t) {
        t.pinnedContract = u"v1"_s;
    }) << u"pinned_contract: must be a contract fingerprint (64 lowercase hex)"_s;
}

void TestCapabilityTokenStore::badSpecsAreRefusedAndNothingIsWritten()
{
    QFETCH(Edit, edit);
    QFETCH(QString, error);
    const qsizetype eventsBefore = EventLog(m_directory->database()).events().value().size();

    CapabilityToken bad = spec();
    edit(bad);
    const StoreResult<CapabilityTokenStore::Minted> minted = m_tokens->create(bad, u"owner:local"_s);
    QVERIFY(!minted.ok());
    QCOMPARE(minted.error().kind, StoreError::Kind::Invalid);
    QCOMPARE(minted.error().message, error);
    QCOMPARE(m_tokens->list().value().size(), 0);
    QCOMPARE(EventLog(m_directory->database()).events().value().size(), eventsBefore);
}

QTEST_GUILESS_MAIN(TestCapabilityTokenStore)
#include "tst_capabilitytokenstore.moc"
