#include "dispatch/receipts/signingkeyvault.h"

#include "dispatch/core/isotime.h"
#include "dispatch/receipts/signingkeylist.h"
#include "dispatch/receipts/signingkeysuccession.h"
#include "dispatch/secrets/keychainsteps.h"
#include "dispatch/store/sqldialect.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace {

// A PEM key is well under a kilobyte: reading no further keeps a wrong file from
// filling memory.
constexpr qint64 maxKeyFileBytes = 64 * 1024;

QString entryName(const QString &keyId)
{
    return QStringLiteral("receipt-signing-key:") + keyId;
}

QString keychainLocation(const QString &keyId)
{
    return QStringLiteral("keychain entry ") + entryName(keyId);
}

} // namespace

struct SigningKeyVault::Search
{
    KeychainSteps steps;
    Unlocking done;
    QList<PublicKey> known;
    QList<SigningKeySuccession> successions;
    std::optional<SigningKey> fileKey;
    QString fileKeyId;
    std::optional<bool> keychainAvailable;
    Missing missing;
    // Set for startNewKey(): the statement the new key's row carries, and whether the key
    // file held the key it succeeds (the new key then replaces it there) or nothing.
    std::optional<SigningKeySuccession> succession = {};
    bool replacesFile = false;
};

SigningKeyVault::SigningKeyVault(const QSqlDatabase &db, const QString &keyFilePath, KeychainStore *keychain,
                                 KeyFile keyFile, const QString &directory)
    : m_db(db), m_keyFilePath(keyFilePath), m_keychain(keychain), m_keyFile(keyFile), m_directory(directory)
{}

std::optional<SigningKeyVault::Unlocked> SigningKeyVault::unlock(QString *error)
{
    return searchBlocking(Missing::Create, error);
}

std::optional<SigningKeyVault::Unlocked> SigningKeyVault::find(QString *error)
{
    return searchBlocking(Missing::Report, error);
}

std::optional<SigningKeyVault::Unlocked> SigningKeyVault::searchBlocking(Missing missing, QString *error)
{
    std::optional<Unlocked> unlocked;
    QString why;
    // Blocking steps run every continuation before search() returns.
    search(
        KeychainSteps::blocking(),
        [&](const std::optional<Unlocked> &key, const QString &reason) {
            unlocked = key;
            why = reason;
        },
        missing);
    if (!unlocked && error)
        *error = why;
    return unlocked;
}

void SigningKeyVault::unlockAsync(QObject *context, Unlocking done)
{
    search(KeychainSteps::onContext(context), std::move(done));
}

void SigningKeyVault::search(KeychainSteps steps, Unlocking done, Missing missing)
{
    const auto search = std::make_shared<Search>(Search{steps, std::move(done), {}, {}, {}, {}, {}, missing});
    StoreResult<SigningKeyList> listed = SigningKeyList::read(m_db);
    if (!listed.ok())
        return finish(search, std::nullopt, listed.error().message);
    QString error;
    if (readKeyFile(&search->fileKey, &error) == Lookup::Refused)
        return finish(search, std::nullopt, error);
    search->known = listed.value().keys;
    search->successions = listed.value().successions;
    search->fileKeyId = search->fileKey ? search->fileKey->publicKey().keyId() : QString();
    tryKey(search, 0);
}

void SigningKeyVault::tryKey(const SearchPtr &search, qsizetype index)
{
    if (index == search->known.size()) {
        if (search->missing == Missing::Report)
            return finish(search,
                          search->fileKey ? std::optional<Unlocked>(
                              Unlocked{*search->fileKey, Unlocked::Storage::File, m_keyFilePath})
                                          : std::nullopt,
                          {});
        // A second key would sign apart from the first and read as forgery to whoever holds
        // the first: once the directory has a key, only startNewKey() adds one.
        if (!search->known.isEmpty())
            return finish(search, std::nullopt,
                          notThisDirectorysKey(search->fileKeyId, search->known.constFirst()));
        // A valid file whose row is missing was written by a run that stopped before the
        // insert (or by a concurrent one): it is this directory's key, not a reason for a new one.
        if (!search->fileKey)
            return createKey(search);
        QString error;
        const std::optional<Unlocked> adopted = adoptKeyFile(*search->fileKey, &error);
        return finish(search, adopted, error);
    }
    const QString keyId = search->known.at(index).keyId();
    if (keyId == search->fileKeyId)
        return found(search, Unlocked{*search->fileKey, Unlocked::Storage::File, m_keyFilePath});
    withKeychain(search, [this, search, index, keyId](bool available) {
        if (!available)
            return tryKey(search, index + 1);
        search->steps.read(entryName(keyId), [this, search, index, keyId](const KeychainStore::Read &entry) {
            std::optional<SigningKey> key;
            QString error;
            switch (checkKeychainEntry(keyId, entry, &key, &error)) {
            case Lookup::Refused:
                return finish(search, std::nullopt, error);
            case Lookup::Found:
                return found(search, Unlocked{*key, Unlocked::Storage::Keychain, keychainLocation(keyId)});
            case Lookup::Absent:
                return tryKey(search, index + 1);
            }
        });
    });
}

void SigningKeyVault::found(const SearchPtr &search, const Unlocked &unlocked)
{
    // A key another one succeeds signs no more: its receipts would chain apart from the
    // successor's, which its holder (if the old key did not vouch) reads as another key's.
    const std::optional<PublicKey> successor =
        search->missing == Missing::Create
            ? SigningKeySuccession::successorOf(unlocked.key.publicKey(), search->successions)
            : std::nullopt;
    if (!successor)
        return finish(search, unlocked, {});
    finish(
        search, std::nullopt,
        QStringLiteral("key %1 (%2) signs no more: key %3 succeeds it, and this machine does not hold "
                       "key %3. Put the file that holds key %3 here; only if key %3 is lost, start a new "
                       "key (%4), since a key started from this one signs beside key %3. Nothing was signed")
            .arg(unlocked.key.publicKey().keyId(), unlocked.location, successor->keyId(), newKeyCommand()));
}

QString SigningKeyVault::notThisDirectorysKey(const QString &heldKeyId, const PublicKey &signer) const
{
    const QString signerId = signer.keyId();
    if (!heldKeyId.isEmpty())
        return QStringLiteral(
                   "%1 holds key %2, not one of this directory's, which signs with key %3: Capdesk neither "
                   "signs with it nor replaces it. Name the file that holds key %3, or move %1 aside and "
                   "start a new key (%4). Nothing was created")
            .arg(m_keyFilePath, heldKeyId, signerId, newKeyCommand());
    if (m_keyFile == KeyFile::Named)
        return QStringLiteral(
                   "no key file at %1; this directory already signs with key %2. Pass --signing-key the "
                   "file that holds that key (a copy of the file it was made in), or start a new key in "
                   "%1 (%3). Nothing was created")
            .arg(m_keyFilePath, signerId, newKeyCommand());
    return QStringLiteral(
               "this directory signs with key %1, and this machine does not hold it (looked in %2). "
               "Put back the key file from where the directory came from, or start a new key (%3); "
               "receipts signed with key %1 still verify. Nothing was created")
        .arg(signerId, placesLooked(), newKeyCommand());
}

QString SigningKeyVault::placesLooked() const
{
    return m_keyFile == KeyFile::Default && m_keychain ? QStringLiteral("the keychain and ") + m_keyFilePath
                                                       : m_keyFilePath;
}

QString SigningKeyVault::newKeyCommand() const
{
    // Quoted where a shell would split or expand it, so the command can be pasted.
    const auto quoted = [](const QString &path) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:@%+=,-]+$"));
        return plain.match(path).hasMatch()
                   ? path
                   : QLatin1Char('\'') + QString(path).replace(QLatin1Char('\''), QStringLiteral("'\\''"))
                         + QLatin1Char('\'');
    };
    const QString directory =
        m_directory.isEmpty() ? QString() : QStringLiteral(" --db ") + quoted(m_directory);
    return m_keyFile == KeyFile::Named
               ? QStringLiteral("capdeskctl signing-key new%1 --signing-key %2")
                     .arg(directory, quoted(m_keyFilePath))
               : QStringLiteral(
                     "capdeskctl signing-key new%1, or File \u2192 Start a New Receipt Key\u2026 in "
                     "Capdesk")
                     .arg(directory);
}

void SigningKeyVault::withKeychain(const SearchPtr &search, std::function<void(bool available)> then)
{
    if (!m_keychain)
        return then(false);
    if (search->keychainAvailable)
        return then(*search->keychainAvailable);
    search->steps.available([search, then = std::move(then)](const KeychainStore::Outcome &outcome) {
        search->keychainAvailable = outcome.ok;
        then(outcome.ok);
    });
}

void SigningKeyVault::finish(const SearchPtr &search, const std::optional<Unlocked> &key,
                             const QString &error)
{
    search->steps.next([search, key, error] { search->done(key, error); });
}

QList<PublicKey> SigningKeyVault::publicKeys() const
{
    const StoreResult<SigningKeyList> listed = SigningKeyList::read(m_db);
    return listed.ok() ? listed.value().keys : QList<PublicKey>();
}

QString SigningKeyVault::storageDescription(const Unlocked &unlocked)
{
    if (unlocked.storage == Unlocked::Storage::Keychain)
        return QStringLiteral("Receipts are signed with a key kept in the keychain (%1).")
            .arg(unlocked.location);
    // Not why the keychain was passed over: a file named with --signing-key, a key file
    // found first and a keychain that could not be reached all end here.
    return QStringLiteral("Receipts are signed with a key kept in the file %1, readable by your user only.")
        .arg(unlocked.location);
}

std::optional<SigningKey> SigningKeyVault::keyInFile(QString *error) const
{
    std::optional<SigningKey> key;
    readKeyFile(&key, error);
    return key;
}

bool SigningKeyVault::keepInFile(const SigningKey &key, QString *error) const
{
    return writeKeyFile(key.privatePem(), error);
}

SigningKeyVault::Lookup SigningKeyVault::readKeyFile(std::optional<SigningKey> *key, QString *error) const
{
    const QFileInfo info(m_keyFilePath);
    if (!info.exists() && !info.isSymLink())
        return Lookup::Absent;
    auto refuse = [&](const QString &why) {
        if (error)
            *error = why;
        return Lookup::Refused;
    };
    const QFileDevice::Permissions openToOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                                  | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                  | QFileDevice::WriteOther | QFileDevice::ExeOther;
    if (info.exists() && (info.permissions() & openToOthers))
        return refuse(
            QStringLiteral("The receipt-signing key file %1 is open to other users, so Capdesk will "
                           "not use it. If the key can still be trusted, run: chmod 600 %1")
                .arg(m_keyFilePath));
    QFile file(m_keyFilePath);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("Cannot read the receipt-signing key file %1: %2")
                          .arg(m_keyFilePath, file.errorString()));
    const QByteArray pem = file.read(maxKeyFileBytes + 1);
    // OpenSSL's word for nothing at all would be "unsupported".
    if (pem.trimmed().isEmpty())
        return refuse(
            QStringLiteral("The receipt-signing key file %1 is empty, so it holds no key; Capdesk left it "
                           "untouched. Name the file that holds the key; or remove this one first, then "
                           "start a new key (%2).")
                .arg(m_keyFilePath, newKeyCommand()));
    QString why;
    *key = SigningKey::fromPem(pem, &why);
    if (!*key)
        return refuse(
            QStringLiteral("The receipt-signing key file %1 cannot be used (%2). It was left untouched: "
                           "restore it from a backup%3.")
                .arg(m_keyFilePath, why,
                     QStringLiteral(", or move it aside and start a new key (%1)").arg(newKeyCommand())));
    return Lookup::Found;
}

SigningKeyVault::Lookup SigningKeyVault::checkKeychainEntry(const QString &keyId,
                                                            const KeychainStore::Read &entry,
                                                            std::optional<SigningKey> *key, QString *error)
{
    if (entry.status != KeychainStore::Read::Status::Found)
        return Lookup::Absent;
    QString why;
    *key = SigningKey::fromPem(entry.value.toLatin1(), &why);
    if (*key && key->value().publicKey().keyId() == keyId)
        return Lookup::Found;
    if (error)
        *error =
            QStringLiteral("The %1 does not hold the key it is named after (%2); Capdesk left it untouched.")
                .arg(keychainLocation(keyId), *key ? QStringLiteral("another key") : why);
    return Lookup::Refused;
}

void SigningKeyVault::createKey(const SearchPtr &search)
{
    const SigningKey key = SigningKey::generate();
    if (key.isNull())
        return finish(search, std::nullopt,
                      QStringLiteral("OpenSSL could not generate a receipt-signing key"));
    storeKey(search, key);
}

void SigningKeyVault::storeKey(const SearchPtr &search, const SigningKey &key)
{
    // A typed path is where the key is wanted, whatever else could hold it; a key file
    // holding the key it succeeds is replaced, so the old key is not left to sign.
    if (m_keyFile == KeyFile::Named || search->replacesFile)
        return placeInFile(search, key);
    withKeychain(search, [this, search, key](bool available) {
        if (!available)
            return placeInFile(search, key);
        const PublicKey publicKey = key.publicKey();
        const QString name = entryName(publicKey.keyId());
        search->steps.set(name, QString::fromLatin1(key.privatePem()),
                          [this, search, key, publicKey, name](const KeychainStore::Outcome &stored) {
                              // A Secret Service that answered the probe but refuses the write
                              // leaves the file as the place, as if it had not answered.
                              if (!stored.ok)
                                  return placeInFile(search, key);
                              QString error;
                              if (insertPublicKey(publicKey, search->succession, &error))
                                  return finish(search,
                                                Unlocked{key, Unlocked::Storage::Keychain,
                                                         keychainLocation(publicKey.keyId())},
                                                {});
                              // Without its row the entry would never be looked up again.
                              search->steps.remove(name, [search, error](const KeychainStore::Outcome &) {
                                  finish(search, std::nullopt, error);
                              });
                          });
    });
}

std::optional<SigningKeyVault::NewKey> SigningKeyVault::startNewKey(const QStringList &follow, QString *error)
{
    std::optional<NewKey> made;
    QString why;
    startNewKey(KeychainSteps::blocking(), follow,
                [&](const std::optional<NewKey> &key, const QString &reason) {
                    made = key;
                    why = reason;
                });
    if (!made && error)
        *error = why;
    return made;
}

void SigningKeyVault::startNewKeyAsync(QObject *context, const QStringList &follow, Starting done)
{
    startNewKey(KeychainSteps::onContext(context), follow, std::move(done));
}

void SigningKeyVault::startNewKey(KeychainSteps steps, const QStringList &follow, Starting done)
{
    search(
        steps,
        [this, steps, follow, done = std::move(done)](const std::optional<Unlocked> &held,
                                                      const QString &error) {
            if (!error.isEmpty())
                return done(std::nullopt, error);
            const StoreResult<SigningKeyList> listed = SigningKeyList::read(m_db);
            if (!listed.ok())
                return done(std::nullopt, listed.error().message);
            QString why;
            const std::optional<NewKey> plan = planNewKey(listed.value(), held, follow, &why);
            if (!plan)
                return done(std::nullopt, why);
            // The first key follows nothing: it is made as any first call makes it.
            if (listed.value().keys.isEmpty())
                return search(
                    steps, [done, plan](const std::optional<Unlocked> &made, const QString &reason) {
                        done(made ? std::optional<NewKey>(NewKey{*made, {}, {}, {}}) : std::nullopt, reason);
                    });
            const SigningKey next = SigningKey::generate();
            if (next.isNull())
                return done(std::nullopt, QStringLiteral("OpenSSL could not generate a receipt-signing key"));
            const Unlocking placed = [done, plan](const std::optional<Unlocked> &made,
                                                  const QString &reason) {
                done(made
                         ? std::optional<NewKey>(NewKey{*made, plan->follows, plan->vouchedBy, plan->leftOut})
                         : std::nullopt,
                     reason);
            };
            const auto succeeding = std::make_shared<Search>(Search{
                steps, placed, listed.value().keys, listed.value().successions, {}, {}, {}, Missing::Create});
            succeeding->succession = SigningKeySuccession::make(
                next, plan->follows, held ? &held->key : nullptr, IsoTime::nowUtc());
            succeeding->replacesFile = held && held->storage == Unlocked::Storage::File;
            storeKey(succeeding, next);
        },
        Missing::Report);
}

std::optional<SigningKeyVault::NewKey> SigningKeyVault::planNewKey(const SigningKeyList &listed,
                                                                   const std::optional<Unlocked> &held,
                                                                   const QStringList &follow,
                                                                   QString *error) const
{
    NewKey plan;
    if (listed.keys.isEmpty())
        return plan;
    if (held) {
        const PublicKey heldKey = held->key.publicKey();
        if (!listed.lists(heldKey)) {
            *error = notThisDirectorysKey(heldKey.keyId(), listed.keys.constFirst());
            return std::nullopt;
        }
        // What the key held here trusts already, and nothing the file alone lists: whoever
        // can write the file can list a key of their own.
        const SigningKeyList trusted{SigningKeySuccession::widen({heldKey}, listed.successions), {}};
        for (const PublicKey &key : listed.keys)
            (trusted.lists(key) ? plan.follows : plan.leftOut).append(key);
        plan.vouchedBy = heldKey.keyId();
        return plan;
    }
    // Without a key held here, only the owner can say which listed keys are theirs.
    QStringList listedIds;
    for (const PublicKey &key : listed.keys)
        listedIds.append(key.keyId());
    if (follow.isEmpty()) {
        *error =
            QStringLiteral("no key held here can vouch for the keys this directory lists (%1), so "
                           "name those the new key follows: --follow ID,… (in Capdesk, confirm the list it "
                           "shows). Check each against your own records of the directory's key: whoever can "
                           "write the file can list a key of their own. Nothing was created")
                .arg(listedIds.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    for (const QString &id : follow) {
        const qsizetype at = listedIds.indexOf(id);
        if (at < 0) {
            *error =
                QStringLiteral("--follow names key %1, which this directory does not list (it lists %2). "
                               "Nothing was created")
                    .arg(id, listedIds.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        plan.follows.append(listed.keys.at(at));
    }
    for (const PublicKey &key : listed.keys) {
        if (!follow.contains(key.keyId()))
            plan.leftOut.append(key);
    }
    return plan;
}

void SigningKeyVault::placeInFile(const SearchPtr &search, const SigningKey &key)
{
    QString error;
    if (search->succession)
        return finish(search, replaceKeyFile(key, *search, &error), error);
    if (writeKeyFile(key.privatePem(), &error)) {
        const std::optional<Unlocked> adopted = adoptKeyFile(key, &error);
        return finish(search, adopted, error);
    }
    // Another process may have created the file since it was looked for: use theirs.
    std::optional<SigningKey> theirs;
    if (!QFileInfo::exists(m_keyFilePath) || readKeyFile(&theirs, &error) != Lookup::Found)
        return finish(search, std::nullopt, error);
    const std::optional<Unlocked> adopted = adoptKeyFile(*theirs, &error);
    finish(search, adopted, error);
}

bool SigningKeyVault::writeKeyFile(const QByteArray &pem, QString *error) const
{
    // Hard-linked into place, which (unlike rename, or QFile::rename's copy fallback) never
    // replaces an existing key.
    const QString temporaryPath = writeTemporaryKeyFile(pem, error);
    if (temporaryPath.isEmpty())
        return false;
    const bool placed =
        ::link(QFile::encodeName(temporaryPath).constData(), QFile::encodeName(m_keyFilePath).constData())
        == 0;
    const QString why = QString::fromLocal8Bit(std::strerror(errno));
    QFile::remove(temporaryPath);
    if (!placed && error)
        *error = QStringLiteral("Cannot write the receipt-signing key file %1: %2").arg(m_keyFilePath, why);
    return placed;
}

QString SigningKeyVault::writeTemporaryKeyFile(const QByteArray &pem, QString *error) const
{
    // Written whole under a private name first, so the key file is never seen half
    // written; created 0600 so not one byte is ever readable by others.
    // A PostgreSQL directory's default key folder may not exist yet; owner-only, like the key.
    const QString folder = QFileInfo(m_keyFilePath).absolutePath();
    if (!QFileInfo::exists(folder) && QDir().mkpath(folder))
        QFile::setPermissions(folder,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QString temporaryPath =
        m_keyFilePath
        + QStringLiteral(".new-%1").arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'));
    QFile temporary(temporaryPath);
    const bool written = temporary.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                                        QFileDevice::ReadOwner | QFileDevice::WriteOwner)
                         && temporary.write(pem) == pem.size() && temporary.flush()
                         && ::fsync(temporary.handle()) == 0;
    const QString why = temporary.errorString();
    temporary.close();
    if (written)
        return temporaryPath;
    QFile::remove(temporaryPath);
    if (error)
        *error = QStringLiteral("Cannot write the receipt-signing key file %1: %2").arg(m_keyFilePath, why);
    return QString();
}

std::optional<SigningKeyVault::Unlocked> SigningKeyVault::replaceKeyFile(const SigningKey &key,
                                                                         const Search &search, QString *error)
{
    const QString temporaryPath = writeTemporaryKeyFile(key.privatePem(), error);
    if (temporaryPath.isEmpty())
        return std::nullopt;
    // Listed first: a new key that is on disk but not listed would be refused as a stranger.
    if (!insertPublicKey(key.publicKey(), search.succession, error)) {
        QFile::remove(temporaryPath);
        return std::nullopt;
    }
    // rename() replaces the key it succeeds in one step; link() never replaces a file that
    // appeared meanwhile.
    const QByteArray from = QFile::encodeName(temporaryPath);
    const QByteArray to = QFile::encodeName(m_keyFilePath);
    const bool placed = search.replacesFile ? ::rename(from.constData(), to.constData()) == 0
                                            : ::link(from.constData(), to.constData()) == 0;
    const QString why = QString::fromLocal8Bit(std::strerror(errno));
    QFile::remove(temporaryPath);
    if (!placed) {
        if (error)
            *error = QStringLiteral("the new key %1 is listed, but its file %2 could not be written (%3), "
                                    "so no key here signs as yet")
                         .arg(key.publicKey().keyId(), m_keyFilePath, why);
        return std::nullopt;
    }
    return Unlocked{key, Unlocked::Storage::File, m_keyFilePath};
}

std::optional<SigningKeyVault::Unlocked> SigningKeyVault::adoptKeyFile(const SigningKey &key, QString *error)
{
    if (!insertPublicKey(key.publicKey(), std::nullopt, error))
        return std::nullopt;
    return Unlocked{key, Unlocked::Storage::File, m_keyFilePath};
}

bool SigningKeyVault::insertPublicKey(const PublicKey &key,
                                      const std::optional<SigningKeySuccession> &succession, QString *error)
{
    QSqlQuery query(m_db);
    // A concurrent process that found the same key file may have inserted it first.
    query.prepare(QStringLiteral("INSERT INTO signing_keys (key_id, public_key_pem, created_at, succession) "
                                 "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"));
    query.addBindValue(key.keyId());
    query.addBindValue(QString::fromLatin1(key.pem()));
    query.addBindValue(IsoTime::nowUtc());
    query.addBindValue(succession ? QVariant(succession->toText())
                                  : QVariant(QMetaType::fromType<QString>()));
    if (query.exec())
        return true;
    if (error)
        *error =
            QStringLiteral("cannot record the receipt-signing public key: %1").arg(query.lastError().text());
    return false;
}
