#pragma once

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receiptarchiver.h"
#include "dispatch/receipts/receiptgroupcommit.h"
#include "dispatch/receipts/receiptlog.h"
#include "dispatch/receipts/receiptsummaryreader.h"
#include "dispatch/receipts/receiptverifier.h"
#include "dispatch/receipts/receiptwriter.h"
#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/tokens/capabilitygaterefusalcounter.h"
#include "dispatch/tokens/capabilitytokenstore.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

class DirectoryStore;
class SqlDirectoryStore;

// The engine's records beside one local directory: signed receipts, capability tokens and
// gate refusals. The dispatcher writes here in the same code path that runs a call; the
// receipt viewer, the Tokens dialog and capdeskctl read here. Used on the thread that
// opened the store (it shares the store's connection).
//
// The signing key is unlocked once, on first need. The plain calls below block while the
// keychain answers (for the CLI); the GUI and the dispatcher call unlockAsync() or
// issueAsync() first, after which nothing here waits on the keychain.
class DirectoryLedger final
{
public:
    enum class KeyPlacement { KeychainOrFile, FileOnly };

    // `signingKeyFile`: where the key's private half is, or goes when no keychain holds it;
    // empty for DefaultLocations::signingKeyFile() of the store. A file named here is made
    // only for a directory without a key (SigningKeyVault::KeyFile::Named).
    explicit DirectoryLedger(std::shared_ptr<SqlDirectoryStore> store,
                             KeyPlacement placement = KeyPlacement::KeychainOrFile,
                             qint64 unknownTokenIntervalMs = CapabilityGateRefusalCounter::kDefaultIntervalMs,
                             const QString &signingKeyFile = QString());
    // Writes the unknown-token refusals still counted.
    ~DirectoryLedger();
    Q_DISABLE_COPY_MOVE(DirectoryLedger)

    // Signs `receipt` (filling `signature`) and commits it durably. The signing key is
    // found, or created, on the first call.
    StoreResult<Receipt> issue(Receipt receipt);
    // The same, with the key unlocked without blocking this thread, through the group
    // commit (ReceiptGroupCommit): `done` runs later on this thread, whatever became of
    // the caller meanwhile, as long as the ledger exists; WhenDurable once the receipt's
    // batch is committed, WhenQueued (a flow's step) once it is signed and queued.
    void issueAsync(Receipt receipt, std::function<void(const StoreResult<Receipt> &)> done,
                    ReceiptGroupCommit::Release release = ReceiptGroupCommit::Release::WhenDurable);
    // Writes every queued receipt now: before a step that changes the world, and when the
    // dispatcher goes. The first error, when a receipt could not be written.
    StoreError flushReceipts() { return m_groupCommit.flush(); }
    // Transactions the group commit has written.
    qint64 receiptBatches() const { return m_groupCommit.batchesWritten(); }
    // Finds (or creates) the signing key without blocking this thread; `done` runs later in
    // `context`'s event loop, and not at all once `context` is destroyed.
    void unlockAsync(QObject *context, std::function<void(const StoreError &)> done);
    // Records a refusal of a stored token in the event log (SPEC §7). A refusal with an
    // empty `tokenId` (the value matched no token) is only counted, and the count goes to
    // the log as one summary event per interval (CapabilityGateRefusalCounter).
    StoreError recordRefusal(const QString &key, const QString &tokenId, const QString &reason,
                             const QString &actor);
    // SPEC §6 confirm: {"confirmed","status","invocation_id","signature"[,"receipt"]}, or
    // with "reason" and "error" when it cannot confirm a receipt that is there:
    // "receipt_mismatch" (the row holds a receipt signed for another invocation),
    // "unreadable", or, when the signature does not hold, "signature_mismatch" (it does not
    // verify over the stored fields), "key_unknown" (the receipt is as written, signed by a
    // key the directory does not list), "signature_malformed" or "no_key".
    // When no receipt is stored, "archived_before" says that receipts older than it were
    // moved out into segment files, where confirmInSegment() looks.
    QJsonObject confirm(const QString &invocationId) const;
    // confirm() of a receipt that an archive moved into the segment file at `segmentPath`:
    // the file must verify with the directory's keys and be one this directory recorded;
    // "archive" then names it. Otherwise "reason" is the file's finding (a
    // ReceiptSegmentFile code, or "segment_not_recorded").
    QJsonObject confirmInSegment(const QString &invocationId, const QString &segmentPath) const;
    // The id of the archive this directory recorded with `seal`, or 0.
    StoreResult<qint64> recordedArchive(const ReceiptSegmentSeal &seal) const;
    // Moves the receipts that started before `before` out into a new segment file at
    // `outPath` (ReceiptArchiver), once every receipt written so far is committed and the
    // pre-chain receipts are sealed into a chain.
    StoreResult<ReceiptArchiver::Outcome> archiveReceipts(const QString &before, const QString &outPath);
    // Unlocks the key and seals the receipts written before the chains existed; the
    // anchor command's first step, and issue()'s.
    StoreError sealPreChain();
    // The signing key, unlocked (or created) first.
    StoreResult<SigningKey> signingKey();
    // Its public half, for public-key: a key that cannot be had says "cannot show", not
    // "cannot sign".
    StoreResult<PublicKey> publicKey();
    // The same without blocking this thread, as unlockAsync().
    void publicKeyAsync(QObject *context, std::function<void(const StoreResult<PublicKey> &)> done);
    // Whether the key is unlocked already, so that signing waits on nothing.
    bool holdsSigningKey() const { return m_key.has_value(); }
    // Where the signing key is looked for, in words (SigningKeyVault::placesLooked).
    QString signingKeyPlaces() const { return m_vault.placesLooked(); }
    // A new signing key from now on, listed with the keys it follows
    // (SigningKeyVault::startNewKey, which reads `follow` only when no key is held here);
    // receipts already queued are written first, with the key they were signed with.
    StoreResult<SigningKeyVault::NewKey> startNewSigningKey(const QStringList &follow = {});
    // The same without blocking this thread; `done` runs later in `context`'s event loop,
    // and not at all once `context` is destroyed.
    void startNewSigningKeyAsync(QObject *context, const QStringList &follow,
                                 std::function<void(const StoreResult<SigningKeyVault::NewKey> &)> done);
    // The signing key if this machine holds one for the directory; never makes one.
    StoreResult<std::optional<SigningKey>> heldSigningKey();

    // Where the signing key lives, in words for the UI; unlocks (or creates) it first.
    StoreResult<QString> keyStorage();
    // Whether that key is in the keychain (else in the 0600 file beside the directory).
    StoreResult<bool> keyIsInKeychain();
    StoreResult<QByteArray> publicKeyPem();
    QList<PublicKey> publicKeys() const { return m_vault.publicKeys(); }

    ReceiptLog &receipts() { return m_receipts; }
    const ReceiptLog &receipts() const { return m_receipts; }
    // The receipts' summaries for a viewer, readable on any thread.
    const std::shared_ptr<const ReceiptSummaryReader> &receiptSummaries() const { return m_summaries; }
    CapabilityTokenStore &tokens() { return m_tokens; }
    // The rows the receipts were written for.
    std::shared_ptr<const DirectoryStore> store() const;

private:
    // The vault's reason in `why` when the key cannot be had.
    bool tryUnlock(QString *why);
    StoreError unlock();
    // Signs with `key` from now on.
    void takeNewKey(const SigningKeyVault::Unlocked &key);
    // The group commit's writer, made with the key (unlocked) at the first batch.
    ReceiptWriter &receiptWriter();
    // The pre-chain receipts sealed once, then `receipt` signed; the key is unlocked.
    StoreError sealAndSign(Receipt &receipt);
    // confirm()'s answer for a receipt found, here or in a segment.
    QJsonObject confirmation(const QString &invocationId, const Receipt &receipt) const;
    // confirm()'s {"reason","error"} for a receipt whose signature is not valid.
    std::pair<QString, QString> whyNotValid(const QString &invocationId, const QJsonObject &receipt,
                                            ReceiptVerifier::Result signature) const;
    // Runs `then` once the key is unlocked or could not be; one search answers all callers.
    void whenUnlocked(std::function<void(const StoreError &)> then);
    void answerWaiting(const StoreError &error);
    static StoreError cannotSign(const QString &why);
    static StoreError cannotReadKey(const QString &why);
    static StoreError cannotShow(const QString &why);
    static StoreError noNewKey(const QString &why);
    static QString sentenceTail(QString why);
    // One CAPABILITY_REFUSED event in its own transaction: a stored token's refusal, or the
    // summary of the unknown ones.
    StoreError writeRefusal(const QString &key, const QString &actor, const QJsonObject &detail);
    StoreError writeUnknownTokenSummary();
    void scheduleUnknownTokenSummary();

    std::shared_ptr<SqlDirectoryStore> m_store;
    KeychainStore m_keychain;
    SigningKeyVault m_vault;
    std::optional<SigningKeyVault::Unlocked> m_key;
    ReceiptLog m_receipts;
    std::shared_ptr<const ReceiptSummaryReader> m_summaries;
    CapabilityTokenStore m_tokens;
    QList<std::function<void(const StoreError &)>> m_waitingForKey;
    // The vault's reason when the last unlock found no key, for the callers that word it
    // their own way (publicKeyAsync).
    QString m_unlockProblem;
    bool m_preChainSealed = false;
    CapabilityGateRefusalCounter m_unknownTokens;
    QElapsedTimer m_clock;
    bool m_summaryScheduled = false;
    ReceiptGroupCommit m_groupCommit;
    // Made with the key at the first batch; destroyed before the group commit it notifies.
    std::unique_ptr<ReceiptWriter> m_writer;
    // The context of the vault's asynchronous steps. Last, so it goes first: no step runs
    // on a ledger being destroyed.
    QObject m_steps;
};
