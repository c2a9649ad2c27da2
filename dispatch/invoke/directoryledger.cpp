#include "dispatch/invoke/directoryledger.h"

#include "dispatch/store/defaultlocations.h"

#include "dispatch/core/isotime.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/receipts/receiptsegmentfile.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/store/writetransaction.h"
#include "dispatch/tokens/capabilitygate.h"

#include <QPointer>
#include <QTimer>

using namespace Qt::StringLiterals;

DirectoryLedger::DirectoryLedger(std::shared_ptr<SqlDirectoryStore> store, KeyPlacement placement,
                                 qint64 unknownTokenIntervalMs, const QString &signingKeyFile)
    : m_store(std::move(store)),
      m_vault(m_store->database(),
              signingKeyFile.isEmpty() ? DefaultLocations::signingKeyFile(m_store->location())
                                       : signingKeyFile,
              placement == KeyPlacement::KeychainOrFile ? &m_keychain : nullptr,
              signingKeyFile.isEmpty() ? SigningKeyVault::KeyFile::Default : SigningKeyVault::KeyFile::Named,
              m_store->location()),
      m_receipts(m_store->database()), m_summaries(std::make_shared<ReceiptSummaryReader>(m_store)),
      m_tokens(m_store->database()), m_unknownTokens(unknownTokenIntervalMs),
      m_groupCommit([this](const QList<Receipt> &batch) { return receiptWriter().write(batch); })
{
    m_clock.start();
}

ReceiptWriter &DirectoryLedger::receiptWriter()
{
    if (!m_writer) {
        m_writer = std::make_unique<ReceiptWriter>(m_store, m_key->key);
        // Received on this thread: the writer is this thread's object.
        QObject::connect(
            m_writer.get(), &ReceiptWriter::written, m_writer.get(), [this] { m_groupCommit.landReady(); },
            Qt::QueuedConnection);
    }
    return *m_writer;
}

std::shared_ptr<const DirectoryStore> DirectoryLedger::store() const
{
    return m_store;
}

DirectoryLedger::~DirectoryLedger()
{
    m_groupCommit.flush();
    if (m_unknownTokens.pending() > 0)
        writeUnknownTokenSummary();
}

bool DirectoryLedger::tryUnlock(QString *why)
{
    if (!m_key)
        m_key = m_vault.unlock(why);
    return m_key.has_value();
}

StoreError DirectoryLedger::cannotShow(const QString &why)
{
    return StoreError::make(StoreError::Kind::Io, u"cannot show the receipt key: "_s + sentenceTail(why));
}

StoreError DirectoryLedger::unlock()
{
    QString why;
    return tryUnlock(&why) ? StoreError::none() : cannotSign(why);
}

StoreError DirectoryLedger::cannotSign(const QString &why)
{
    return StoreError::make(StoreError::Kind::Io, u"cannot sign receipts: "_s + sentenceTail(why));
}

StoreError DirectoryLedger::cannotReadKey(const QString &why)
{
    return StoreError::make(StoreError::Kind::Io,
                            u"cannot read the receipt-signing key: "_s + sentenceTail(why));
}

// The vault's reasons are sentences of their own (a dialog shows them so); after a colon
// their opening word is lower-cased. Only these words: a reason may open with a path or a
// name (OpenSSL), which keeps its case.
QString DirectoryLedger::sentenceTail(QString why)
{
    static const QStringList openings{u"The"_s, u"Cannot"_s, u"This"_s, u"No"_s};
    if (openings.contains(why.section(u' ', 0, 0)))
        why[0] = why[0].toLower();
    return why;
}

StoreError DirectoryLedger::noNewKey(const QString &why)
{
    return StoreError::make(StoreError::Kind::Io, u"no new signing key was made: "_s + sentenceTail(why));
}

void DirectoryLedger::whenUnlocked(std::function<void(const StoreError &)> then)
{
    m_waitingForKey.append(std::move(then));
    if (m_waitingForKey.size() > 1)
        return;
    if (m_key) {
        QMetaObject::invokeMethod(
            &m_steps, [this] { answerWaiting(StoreError::none()); }, Qt::QueuedConnection);
        return;
    }
    m_vault.unlockAsync(&m_steps,
                        [this](const std::optional<SigningKeyVault::Unlocked> &key, const QString &error) {
                            if (key && !m_key)
                                m_key = key;
                            m_unlockProblem = m_key ? QString() : error;
                            answerWaiting(m_key ? StoreError::none() : cannotSign(error));
                        });
}

void DirectoryLedger::answerWaiting(const StoreError &error)
{
    const QList<std::function<void(const StoreError &)>> waiting = std::exchange(m_waitingForKey, {});
    for (const std::function<void(const StoreError &)> &then : waiting)
        then(error);
}

void DirectoryLedger::unlockAsync(QObject *context, std::function<void(const StoreError &)> done)
{
    whenUnlocked([context = QPointer<QObject>(context), done = std::move(done)](const StoreError &error) {
        if (context)
            done(error);
    });
}

void DirectoryLedger::issueAsync(Receipt receipt, std::function<void(const StoreResult<Receipt> &)> done,
                                 ReceiptGroupCommit::Release release)
{
    whenUnlocked([this, receipt = std::move(receipt), done = std::move(done),
                  release](const StoreError &error) mutable {
        if (error.isError()) {
            done(error);
            return;
        }
        if (const StoreError signError = sealAndSign(receipt); signError.isError()) {
            done(signError);
            return;
        }
        m_groupCommit.add(std::move(receipt), release, std::move(done));
    });
}

StoreError DirectoryLedger::sealAndSign(Receipt &receipt)
{
    if (!m_preChainSealed) {
        if (StoreError sealed = m_receipts.sealPreChain(m_key->key); sealed.isError())
            return sealed;
        m_preChainSealed = true;
    }
    receipt.signature = QString::fromLatin1(m_key->key.sign(receipt.signedBytes()).toBase64());
    return StoreError::none();
}

StoreResult<Receipt> DirectoryLedger::issue(Receipt receipt)
{
    if (const StoreError locked = unlock(); locked.isError())
        return locked;
    if (const StoreError signError = sealAndSign(receipt); signError.isError())
        return signError;
    // Behind what is queued, so the chain keeps the order the calls finished in; flush()
    // answers it before returning.
    std::optional<StoreResult<Receipt>> written;
    m_groupCommit.add(std::move(receipt), ReceiptGroupCommit::Release::WhenDurable,
                      [&written](const StoreResult<Receipt> &result) { written = result; });
    m_groupCommit.flush();
    if (!written)
        return StoreError::make(StoreError::Kind::Io, u"the receipt was not written"_s);
    return *written;
}

StoreError DirectoryLedger::sealPreChain()
{
    if (StoreError locked = unlock(); locked.isError())
        return locked;
    if (m_preChainSealed)
        return StoreError::none();
    StoreError sealed = m_receipts.sealPreChain(m_key->key);
    m_preChainSealed = !sealed.isError();
    return sealed;
}

StoreResult<SigningKey> DirectoryLedger::signingKey()
{
    if (const StoreError locked = unlock(); locked.isError())
        return locked;
    return m_key->key;
}

StoreResult<PublicKey> DirectoryLedger::publicKey()
{
    QString why;
    if (!tryUnlock(&why))
        return cannotShow(why);
    return m_key->key.publicKey();
}

void DirectoryLedger::publicKeyAsync(QObject *context,
                                     std::function<void(const StoreResult<PublicKey> &)> done)
{
    unlockAsync(context, [this, done = std::move(done)](const StoreError &locked) {
        done(locked.isError() ? StoreResult<PublicKey>(cannotShow(m_unlockProblem)) : m_key->key.publicKey());
    });
}

StoreResult<SigningKeyVault::NewKey> DirectoryLedger::startNewSigningKey(const QStringList &follow)
{
    QString error;
    const std::optional<SigningKeyVault::NewKey> made = m_vault.startNewKey(follow, &error);
    if (!made)
        return noNewKey(error);
    takeNewKey(made->unlocked);
    return *made;
}

void DirectoryLedger::startNewSigningKeyAsync(
    QObject *context, const QStringList &follow,
    std::function<void(const StoreResult<SigningKeyVault::NewKey> &)> done)
{
    m_vault.startNewKeyAsync(&m_steps, follow,
                             [this, context = QPointer<QObject>(context), done = std::move(done)](
                                 const std::optional<SigningKeyVault::NewKey> &made, const QString &error) {
                                 if (made)
                                     takeNewKey(made->unlocked);
                                 if (context)
                                     done(made ? StoreResult<SigningKeyVault::NewKey>(*made)
                                               : StoreResult<SigningKeyVault::NewKey>(noNewKey(error)));
                             });
}

void DirectoryLedger::takeNewKey(const SigningKeyVault::Unlocked &key)
{
    m_groupCommit.flush();
    // The writer signs its chain heads with the key it was made with.
    m_writer.reset();
    m_key = key;
}

StoreResult<std::optional<SigningKey>> DirectoryLedger::heldSigningKey()
{
    if (m_key)
        return std::optional<SigningKey>(m_key->key);
    QString error;
    const std::optional<SigningKeyVault::Unlocked> found = m_vault.find(&error);
    if (!found && !error.isEmpty())
        return cannotReadKey(error);
    return found ? std::optional<SigningKey>(found->key) : std::nullopt;
}

StoreError DirectoryLedger::writeUnknownTokenSummary()
{
    const CapabilityGateRefusalCounter::Summary summary = m_unknownTokens.take(m_clock.elapsed());
    return writeRefusal(QString(), u"token:unknown"_s,
                        QJsonObject{{u"reason"_s, CapabilityGate::unknownToken().reason},
                                    {u"count"_s, summary.count},
                                    {u"first_at"_s, summary.firstAt},
                                    {u"last_at"_s, summary.lastAt}});
}

void DirectoryLedger::scheduleUnknownTokenSummary()
{
    if (m_summaryScheduled)
        return;
    m_summaryScheduled = true;
    QTimer::singleShot(std::chrono::milliseconds(m_unknownTokens.dueIn(m_clock.elapsed())), &m_steps, [this] {
        m_summaryScheduled = false;
        if (m_unknownTokens.pending() > 0)
            writeUnknownTokenSummary();
    });
}

StoreError DirectoryLedger::recordRefusal(const QString &key, const QString &tokenId, const QString &reason,
                                          const QString &actor)
{
    if (tokenId.isEmpty()) {
        if (m_unknownTokens.count(m_clock.elapsed(), IsoTime::nowUtc()))
            return writeUnknownTokenSummary();
        scheduleUnknownTokenSummary();
        return StoreError::none();
    }
    return writeRefusal(key, actor, QJsonObject{{u"token_id"_s, tokenId}, {u"reason"_s, reason}});
}

StoreError DirectoryLedger::writeRefusal(const QString &key, const QString &actor, const QJsonObject &detail)
{
    WriteTransaction transaction(m_store->database());
    if (transaction.startError().isError())
        return transaction.startError();
    LogEvent event;
    event.kind = u"CAPABILITY_REFUSED"_s;
    event.action = u"invoke"_s;
    event.key = key;
    event.actor = actor;
    event.detail = detail;
    if (StoreError error = EventLog(m_store->database()).append(event); error.isError())
        return error;
    return transaction.commit();
}

QJsonObject DirectoryLedger::confirm(const QString &invocationId) const
{
    const StoreResult<Receipt> found = m_receipts.find(invocationId);
    if (!found.ok()) {
        QJsonObject unknown{{u"confirmed"_s, false},
                            {u"status"_s, u"UNKNOWN_INVOCATION"_s},
                            {u"invocation_id"_s, invocationId}};
        if (found.error().kind == StoreError::Kind::Conflict)
            unknown.insert(u"reason"_s, u"receipt_mismatch"_s);
        else if (found.error().kind != StoreError::Kind::NotFound)
            unknown.insert(u"reason"_s, u"unreadable"_s);
        if (found.error().kind != StoreError::Kind::NotFound)
            unknown.insert(u"error"_s, found.error().message);
        const StoreResult<QString> archivedBefore = m_receipts.archivedBefore();
        if (found.error().kind == StoreError::Kind::NotFound && archivedBefore.ok()
            && !archivedBefore.value().isEmpty())
            unknown.insert(u"archived_before"_s, archivedBefore.value());
        return unknown;
    }
    return confirmation(invocationId, found.value());
}

QJsonObject DirectoryLedger::confirmation(const QString &invocationId, const Receipt &found) const
{
    const QJsonObject receipt = found.toJson();
    const ReceiptVerifier::Result signature = ReceiptVerifier::check(receipt, m_vault.publicKeys());
    QJsonObject answer{{u"confirmed"_s, signature == ReceiptVerifier::Result::Valid},
                       {u"status"_s, Receipt::statusFor(found.material)},
                       {u"invocation_id"_s, invocationId},
                       {u"signature"_s, ReceiptVerifier::name(signature)},
                       {u"receipt"_s, receipt}};
    if (signature != ReceiptVerifier::Result::Valid) {
        const auto [reason, message] = whyNotValid(invocationId, receipt, signature);
        answer.insert(u"reason"_s, reason);
        answer.insert(u"error"_s, message);
    }
    return answer;
}

QJsonObject DirectoryLedger::confirmInSegment(const QString &invocationId, const QString &segmentPath) const
{
    QJsonObject unknown{
        {u"confirmed"_s, false}, {u"status"_s, u"UNKNOWN_INVOCATION"_s}, {u"invocation_id"_s, invocationId}};
    const ReceiptSegmentFile::Check check =
        ReceiptSegmentFile::verify(segmentPath, m_vault.publicKeys(), invocationId);
    if (!check.ok()) {
        unknown.insert(u"reason"_s, check.code);
        unknown.insert(u"error"_s, check.message);
        return unknown;
    }
    const StoreResult<qint64> recorded = recordedArchive(*check.seal);
    if (!recorded.ok() || recorded.value() == 0) {
        unknown.insert(u"reason"_s, recorded.ok() ? u"segment_not_recorded"_s : u"unreadable"_s);
        unknown.insert(u"error"_s, recorded.ok() ? u"%1 verifies, but this directory recorded no archive "
                                                   "with its seal"_s.arg(segmentPath)
                                                 : recorded.error().message);
        return unknown;
    }
    const QJsonObject archive{
        {u"archive_id"_s, recorded.value()}, {u"before"_s, check.seal->before}, {u"file"_s, segmentPath}};
    if (!check.found) {
        unknown.insert(u"archive"_s, archive);
        return unknown;
    }
    QString error;
    const std::optional<Receipt> receipt = Receipt::fromJson(*check.found, &error);
    if (!receipt) {
        unknown.insert(u"reason"_s, u"unreadable"_s);
        unknown.insert(u"error"_s, error);
        return unknown;
    }
    QJsonObject answer = confirmation(invocationId, *receipt);
    answer.insert(u"archive"_s, archive);
    return answer;
}

StoreResult<qint64> DirectoryLedger::recordedArchive(const ReceiptSegmentSeal &seal) const
{
    return ReceiptArchiver::recordedArchive(m_store->database(), seal);
}

StoreResult<ReceiptArchiver::Outcome> DirectoryLedger::archiveReceipts(const QString &before,
                                                                       const QString &outPath)
{
    if (StoreError sealed = sealPreChain(); sealed.isError())
        return sealed;
    if (StoreError flushed = flushReceipts(); flushed.isError())
        return flushed;
    // A seal vouches for what it covers, so nothing is sealed from a log that does not verify
    // against this key: a chain rewritten with recomputed links fails its signed head here.
    const StoreResult<ReceiptLogAudit::Report> audited =
        ReceiptLogAudit::run(m_store->database(), {m_key->key.publicKey()});
    if (!audited.ok())
        return audited.error();
    if (!audited.value().intact())
        return StoreError::make(
            StoreError::Kind::Conflict,
            u"the log does not verify, so nothing was archived (%1); `capdeskctl log --verify` "
            "names every finding"_s.arg(audited.value().summary()));
    return ReceiptArchiver(m_store->database(), m_key->key).archive(before, outPath);
}

std::pair<QString, QString> DirectoryLedger::whyNotValid(const QString &invocationId,
                                                         const QJsonObject &receipt,
                                                         ReceiptVerifier::Result signature) const
{
    if (signature == ReceiptVerifier::Result::NoKey)
        return {u"no_key"_s, u"the directory lists no public key to check the receipt with"_s};
    if (!ReceiptVerifier::signatureWellFormed(receipt))
        return {u"signature_malformed"_s,
                u"the receipt's signature is not the base64 of a 64-byte Ed25519 signature"_s};
    const QString mismatch =
        u"the signature does not verify over the stored fields with any of the directory's keys"_s;
    // The receipt's chain link tells an edit after the receipt was written from a
    // signature made with a key this directory does not list.
    const StoreResult<ReceiptLog::LinkState> link = m_receipts.linkState(invocationId);
    if (!link.ok())
        return {u"signature_mismatch"_s, mismatch};
    switch (link.value()) {
    case ReceiptLog::LinkState::Linked:
        return {u"key_unknown"_s, u"the stored receipt is the one written, but none of the directory's keys "
                                  "signed it: it was signed with a key the directory does not list"_s};
    case ReceiptLog::LinkState::Altered:
        return {u"signature_mismatch"_s,
                mismatch
                    + u": the stored receipt was edited after it was written (it no longer matches its "
                      "receipt chain link)"_s};
    case ReceiptLog::LinkState::Unlinked:
        break;
    }
    return {u"signature_mismatch"_s, mismatch + u"; the receipt is in no receipt chain"_s};
}

StoreResult<QString> DirectoryLedger::keyStorage()
{
    const StoreError locked = unlock();
    if (locked.isError())
        return locked;
    return SigningKeyVault::storageDescription(*m_key);
}

StoreResult<bool> DirectoryLedger::keyIsInKeychain()
{
    const StoreError locked = unlock();
    if (locked.isError())
        return locked;
    return m_key->storage == SigningKeyVault::Unlocked::Storage::Keychain;
}

StoreResult<QByteArray> DirectoryLedger::publicKeyPem()
{
    const StoreResult<PublicKey> key = publicKey();
    if (!key.ok())
        return key.error();
    return key.value().pem();
}
