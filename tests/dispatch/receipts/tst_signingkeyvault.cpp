#include "dispatch/receipts/signingkeylist.h"
#include "dispatch/receipts/signingkeysuccession.h"
#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

using Storage = SigningKeyVault::Unlocked::Storage;

int modeOf(const QString &path)
{
    struct stat info
    {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 07777) : -1;
}

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes, int mode)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode_t(mode)), 0);
}

} // namespace

Q_DECLARE_METATYPE(SigningKeyVault::KeyFile)

// SigningKeyVault (SPEC §6): the private half in the keychain, else in a 0600 file beside
// the directory; public halves in signing_keys. The keychain case needs a Secret Service
// (packaging/capdesk test runs one); without it only that case is skipped.
class TestSigningKeyVault : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void fileFallbackCreatesOnce();
    void fileIsPrivateFromCreation();
    void openFileRefused_data();
    void openFileRefused();
    void corruptFileRefusedAndKept_data();
    void corruptFileRefusedAndKept();
    void orphanFileAdopted();
    void newestReachableKeyWins();
    void aKeyIsMadeOnlyForADirectoryWithout_data();
    void aKeyIsMadeOnlyForADirectoryWithout();
    void aNewKeySucceedsTheOneBefore_data();
    void aNewKeySucceedsTheOneBefore();
    void aSucceededKeySignsNoMore();
    void aKeyNotSignedForSignsOn();
    void aFileListingTooManyKeysIsRefused();
    void keychainHoldsTheKey();
    void asynchronousUnlockFindsWhatTheBlockingOneFinds_data();
    void asynchronousUnlockFindsWhatTheBlockingOneFinds();
    void storageDescriptionNamesThePlace();
    void cleanup();

private:
    QString keyFile() const { return m_path + u".signing-key"_s; }
    SigningKeyVault vault(KeychainStore *keychain = nullptr) const
    {
        return SigningKeyVault(m_store->database(), m_path + QStringLiteral(".signing-key"), keychain);
    }
    int rowCount() const;
    void insertRow(const PublicKey &key, const QString &createdAt, const QString &succession = QString());

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    QString m_path;
    QStringList m_keychainEntries;
};

void TestSigningKeyVault::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(u"directory.db"_s);
    auto opened = SqlDirectoryStore::open(m_path);
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();
}

void TestSigningKeyVault::cleanup()
{
    KeychainStore keychain;
    for (const QString &name : std::as_const(m_keychainEntries))
        keychain.remove(name);
    m_keychainEntries.clear();
    m_store.reset();
    m_dir.reset();
}

int TestSigningKeyVault::rowCount() const
{
    QSqlQuery query(m_store->database());
    return query.exec(u"SELECT count(*) FROM signing_keys"_s) && query.next() ? query.value(0).toInt() : -1;
}

void TestSigningKeyVault::insertRow(const PublicKey &key, const QString &createdAt, const QString &succession)
{
    QSqlQuery query(m_store->database());
    query.prepare(
        u"INSERT INTO signing_keys (key_id, public_key_pem, created_at, succession) VALUES (?, ?, ?, ?)"_s);
    query.addBindValue(key.keyId());
    query.addBindValue(QString::fromLatin1(key.pem()));
    query.addBindValue(createdAt);
    query.addBindValue(succession.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                            : QVariant(succession));
    QVERIFY(query.exec());
}

void TestSigningKeyVault::fileFallbackCreatesOnce()
{
    QString error;
    SigningKeyVault first = vault();
    const std::optional<SigningKeyVault::Unlocked> created = first.unlock(&error);
    QVERIFY2(created, qPrintable(error));
    QCOMPARE(created->storage, Storage::File);
    QCOMPARE(created->location, keyFile());
    QCOMPARE(modeOf(keyFile()), 0600);
    QCOMPARE(rowCount(), 1);
    const QByteArray fileBytes = contentsOf(keyFile());
    QVERIFY(fileBytes.startsWith("-----BEGIN PRIVATE KEY-----"));

    const QString keyId = created->key.publicKey().keyId();
    const std::optional<SigningKeyVault::Unlocked> again = first.unlock(&error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->key.publicKey().keyId(), keyId);
    // A later run, with a vault of its own, finds the same key.
    SigningKeyVault later = vault();
    const std::optional<SigningKeyVault::Unlocked> reopened = later.unlock(&error);
    QVERIFY2(reopened, qPrintable(error));
    QCOMPARE(reopened->key.publicKey().keyId(), keyId);
    QCOMPARE(reopened->storage, Storage::File);

    QCOMPARE(rowCount(), 1);
    QCOMPARE(contentsOf(keyFile()), fileBytes);
    const QList<PublicKey> keys = later.publicKeys();
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys.first().keyId(), keyId);
    QVERIFY(keys.first().verify("receipt", reopened->key.sign("receipt")));
    // No temporary file is left beside the directory.
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden).filter(u".new-"_s), QStringList());
}

void TestSigningKeyVault::fileIsPrivateFromCreation()
{
    // With no umask to help, the mode asked for at creation must alone keep it private.
    const mode_t previous = ::umask(0);
    QString error;
    SigningKeyVault keys = vault();
    const std::optional<SigningKeyVault::Unlocked> created = keys.unlock(&error);
    ::umask(previous);
    QVERIFY2(created, qPrintable(error));
    QCOMPARE(modeOf(keyFile()), 0600);
}

void TestSigningKeyVault::openFileRefused_data()
{
    QTest::addColumn<int>("mode");
    QTest::addRow("group-readable") << 0640;
    QTest::addRow("group-writable") << 0620;
    QTest::addRow("world-readable") << 0604;
    QTest::addRow("world-writable") << 0602;
    QTest::addRow("0644") << 0644;
    QTest::addRow("0666") << 0666;
}

void TestSigningKeyVault::openFileRefused()
{
    QFETCH(int, mode);
    QString error;
    SigningKeyVault first = vault();
    QVERIFY2(first.unlock(&error), qPrintable(error));
    const QByteArray before = contentsOf(keyFile());
    QCOMPARE(::chmod(QFile::encodeName(keyFile()).constData(), mode_t(mode)), 0);

    SigningKeyVault keys = vault();
    error.clear();
    QVERIFY(!keys.unlock(&error));
    QVERIFY2(error.contains(keyFile()) && error.contains(u"chmod 600"_s), qPrintable(error));
    QVERIFY(!error.contains(u"PRIVATE KEY"_s));
    QCOMPARE(contentsOf(keyFile()), before);
    QCOMPARE(modeOf(keyFile()), mode);
    QCOMPARE(rowCount(), 1);
}

void TestSigningKeyVault::corruptFileRefusedAndKept_data()
{
    const QByteArray valid = SigningKey::generate().privatePem();
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<bool>("withRow"); // the directory already has a key
    QTest::addRow("garbage") << QByteArray("not a key\n") << false;
    QTest::addRow("empty file") << QByteArray() << false;
    QTest::addRow("truncated PEM") << valid.left(valid.size() / 2) << false;
    QTest::addRow("a public key") << SigningKey::generate().publicKey().pem() << false;
    QTest::addRow("binary") << QByteArray("\0\x01\xff\x30", 4) << false;
    QTest::addRow("garbage, directory has a key") << QByteArray("garbage") << true;
}

void TestSigningKeyVault::corruptFileRefusedAndKept()
{
    QFETCH(QByteArray, contents);
    QFETCH(bool, withRow);
    if (withRow)
        insertRow(SigningKey::generate().publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    writeFile(keyFile(), contents, 0600);
    const int rowsBefore = rowCount();

    QString error;
    SigningKeyVault keys = vault();
    QVERIFY(!keys.unlock(&error));
    QVERIFY2(error.contains(keyFile()) && error.contains(u"untouched"_s), qPrintable(error));
    for (const QByteArray &line : contents.split('\n')) {
        if (line.size() >= 16 && !line.startsWith("-----"))
            QVERIFY2(!error.contains(QString::fromLatin1(line)), "the error quotes the file");
    }
    QCOMPARE(contentsOf(keyFile()), contents);
    QCOMPARE(modeOf(keyFile()), 0600);
    QCOMPARE(rowCount(), rowsBefore);
}

void TestSigningKeyVault::orphanFileAdopted()
{
    const SigningKey key = SigningKey::generate();
    writeFile(keyFile(), key.privatePem(), 0600);
    QString error;
    SigningKeyVault keys = vault();
    const std::optional<SigningKeyVault::Unlocked> unlocked = keys.unlock(&error);
    QVERIFY2(unlocked, qPrintable(error));
    QCOMPARE(unlocked->storage, Storage::File);
    QCOMPARE(unlocked->key.publicKey().keyId(), key.publicKey().keyId());
    QCOMPARE(rowCount(), 1);
    QCOMPARE(keys.publicKeys().first().keyId(), key.publicKey().keyId());
}

void TestSigningKeyVault::newestReachableKeyWins()
{
    const SigningKey older = SigningKey::generate();
    const SigningKey newer = SigningKey::generate(); // its private half is nowhere here
    insertRow(older.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    insertRow(newer.publicKey(), u"2026-02-01T00:00:00.000Z"_s);
    writeFile(keyFile(), older.privatePem(), 0600);

    SigningKeyVault keys = vault();
    const QList<PublicKey> listed = keys.publicKeys();
    QCOMPARE(listed.size(), 2);
    QCOMPARE(listed.at(0).keyId(), newer.publicKey().keyId());
    QCOMPARE(listed.at(1).keyId(), older.publicKey().keyId());
    QString error;
    const std::optional<SigningKeyVault::Unlocked> unlocked = keys.unlock(&error);
    QVERIFY2(unlocked, qPrintable(error));
    QCOMPARE(unlocked->key.publicKey().keyId(), older.publicKey().keyId());
    QCOMPARE(rowCount(), 2);
}

void TestSigningKeyVault::aKeyIsMadeOnlyForADirectoryWithout_data()
{
    QTest::addColumn<bool>("directoryHasAKey");
    QTest::addColumn<QString>("fileHolds"); // "nothing", "its key" or "another key"
    QTest::addColumn<SigningKeyVault::KeyFile>("keyFile");
    QTest::addColumn<bool>("unlocks");
    using KeyFile = SigningKeyVault::KeyFile;
    QTest::newRow("named, a directory without a key: made there")
        << false << u"nothing"_s << KeyFile::Named << true;
    QTest::newRow("named, a directory without a key: the file's taken on")
        << false << u"another key"_s << KeyFile::Named << true;
    QTest::newRow("named, the file holds the directory's key")
        << true << u"its key"_s << KeyFile::Named << true;
    // `--signing-key typo.pem`: a second key would sign apart from the first.
    QTest::newRow("named, nothing there but the directory has a key")
        << true << u"nothing"_s << KeyFile::Named << false;
    // Another directory's key file, named by mistake.
    QTest::newRow("named, another key there and the directory has one")
        << true << u"another key"_s << KeyFile::Named << false;
    // Capdesk's own place, its key lost (a copy on a new machine, or one run with
    // --signing-key and one without): a second key would sign apart from the first as
    // well; startNewKey() is how such a directory signs again.
    QTest::newRow("default, nothing there but the directory has a key")
        << true << u"nothing"_s << KeyFile::Default << false;
    QTest::newRow("default, another key there and the directory has one")
        << true << u"another key"_s << KeyFile::Default << false;
    QTest::newRow("default, the file holds the directory's key")
        << true << u"its key"_s << KeyFile::Default << true;
}

void TestSigningKeyVault::aKeyIsMadeOnlyForADirectoryWithout()
{
    QFETCH(bool, directoryHasAKey);
    QFETCH(QString, fileHolds);
    QFETCH(SigningKeyVault::KeyFile, keyFile);
    QFETCH(bool, unlocks);
    const SigningKey existing = SigningKey::generate();
    const SigningKey other = SigningKey::generate();
    if (directoryHasAKey)
        insertRow(existing.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    const QString path = m_dir->filePath(u"named.pem"_s);
    if (fileHolds != u"nothing"_s)
        writeFile(path, (fileHolds == u"its key"_s ? existing : other).privatePem(), 0600);
    const QByteArray fileBefore = contentsOf(path);
    const int rowsBefore = rowCount();

    SigningKeyVault keys(m_store->database(), path, nullptr, keyFile);
    QString error;
    const std::optional<SigningKeyVault::Unlocked> unlocked = keys.unlock(&error);
    QVERIFY2(bool(unlocked) == unlocks, qPrintable(error));
    if (unlocks) {
        QVERIFY(QFile::exists(path));
        if (fileHolds != u"nothing"_s)
            QCOMPARE(contentsOf(path), fileBefore);
        return;
    }
    const QString held = fileHolds != u"nothing"_s ? path + u" holds key "_s + other.publicKey().keyId()
                         : keyFile == SigningKeyVault::KeyFile::Named
                             ? u"no key file at "_s + path
                             : u"this directory signs with key "_s + existing.publicKey().keyId();
    QVERIFY2(error.startsWith(held), qPrintable(error));
    QVERIFY2(error.contains(u"signs with key "_s + existing.publicKey().keyId()), qPrintable(error));
    QVERIFY2(error.contains(u"signing-key new"_s), qPrintable(error));
    QCOMPARE(contentsOf(path), fileBefore);
    QCOMPARE(rowCount(), rowsBefore);
    QCOMPARE(QDir(m_dir->path()).entryList({u"named.pem*"_s}, QDir::Files | QDir::Hidden).size(),
             fileHolds == u"nothing"_s ? 0 : 1);
}

void TestSigningKeyVault::aNewKeySucceedsTheOneBefore_data()
{
    QTest::addColumn<bool>("directoryHasAKey"); // and a stranger's key someone listed beside it
    QTest::addColumn<QString>("fileHolds"); // "nothing", "its key" or "another key"
    QTest::addColumn<SigningKeyVault::KeyFile>("keyFile");
    QTest::addColumn<QString>("follow"); // "", "its key" or "unlisted": what --follow names
    QTest::addColumn<QString>("outcome"); // "vouched", "unvouched", "first" or a refusal's start
    using KeyFile = SigningKeyVault::KeyFile;
    QTest::newRow("the key file holds the key: replaced, and the old key signs for the new")
        << true << u"its key"_s << KeyFile::Default << QString() << u"vouched"_s;
    QTest::newRow("a named file holds the key: replaced the same")
        << true << u"its key"_s << KeyFile::Named << QString() << u"vouched"_s;
    QTest::newRow("the key held decides, whatever --follow names")
        << true << u"its key"_s << KeyFile::Default << u"unlisted"_s << u"vouched"_s;
    QTest::newRow("the key is lost: a new one follows the key named")
        << true << u"nothing"_s << KeyFile::Default << u"its key"_s << u"unvouched"_s;
    QTest::newRow("the key is lost, a file named: made there")
        << true << u"nothing"_s << KeyFile::Named << u"its key"_s << u"unvouched"_s;
    // Without a key here, only the owner can tell their key from one someone listed.
    QTest::newRow("the key is lost and no key is named: refused")
        << true << u"nothing"_s << KeyFile::Default << QString() << u"no key held here can vouch"_s;
    QTest::newRow("the key is lost and the key named is not listed: refused")
        << true << u"nothing"_s << KeyFile::Default << u"unlisted"_s << u"--follow names key"_s;
    QTest::newRow("a directory without a key: its first")
        << false << u"nothing"_s << KeyFile::Default << QString() << u"first"_s;
    // Not this directory's key: not Capdesk's to destroy.
    QTest::newRow("another directory's key in the file: refused")
        << true << u"another key"_s << KeyFile::Named << QString() << u"named.pem holds key"_s;
}

void TestSigningKeyVault::aNewKeySucceedsTheOneBefore()
{
    QFETCH(bool, directoryHasAKey);
    QFETCH(QString, fileHolds);
    QFETCH(SigningKeyVault::KeyFile, keyFile);
    QFETCH(QString, follow);
    QFETCH(QString, outcome);
    const SigningKey existing = SigningKey::generate();
    const SigningKey stranger = SigningKey::generate(); // listed by whoever could write the file
    const SigningKey other = SigningKey::generate();
    if (directoryHasAKey) {
        insertRow(existing.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
        // Their own statement that their key follows the directory's, which the
        // directory's key did not sign: its vouch is copied from another statement.
        const SigningKeySuccession vouched =
            SigningKeySuccession::make(SigningKey::generate(), {existing.publicKey()}, &existing, u"x"_s);
        QJsonObject forged = QJsonDocument::fromJson(
                                 SigningKeySuccession::make(stranger, {existing.publicKey()}, nullptr, u"x"_s)
                                     .toText()
                                     .toUtf8())
                                 .object();
        forged.insert(u"vouched_by"_s,
                      QJsonDocument::fromJson(vouched.toText().toUtf8()).object().value(u"vouched_by"_s));
        insertRow(stranger.publicKey(), u"2026-02-01T00:00:00.000Z"_s,
                  QString::fromUtf8(QJsonDocument(forged).toJson(QJsonDocument::Compact)));
    }
    const QString path = m_dir->filePath(u"named.pem"_s);
    if (fileHolds != u"nothing"_s)
        writeFile(path, (fileHolds == u"its key"_s ? existing : other).privatePem(), 0600);
    const QByteArray fileBefore = contentsOf(path);
    const int rowsBefore = rowCount();
    const QStringList named = follow.isEmpty()         ? QStringList()
                              : follow == u"its key"_s ? QStringList{existing.publicKey().keyId()}
                                                       : QStringList{other.publicKey().keyId()};

    SigningKeyVault keys(m_store->database(), path, nullptr, keyFile);
    QString error;
    const std::optional<SigningKeyVault::NewKey> made = keys.startNewKey(named, &error);
    if (outcome != u"vouched"_s && outcome != u"unvouched"_s && outcome != u"first"_s) {
        QVERIFY(!made);
        QVERIFY2(error.startsWith(outcome) || error.contains(u"/"_s + outcome), qPrintable(error));
        QCOMPARE(contentsOf(path), fileBefore);
        QCOMPARE(rowCount(), rowsBefore);
        return;
    }
    QVERIFY2(made, qPrintable(error));
    const PublicKey next = made->unlocked.key.publicKey();
    QCOMPARE(made->unlocked.storage, Storage::File);
    QCOMPARE(contentsOf(path), made->unlocked.key.privatePem());
    QCOMPARE(modeOf(path), 0600);
    QCOMPARE(rowCount(), rowsBefore + 1);
    QCOMPARE(keys.publicKeys().constFirst().keyId(), next.keyId());
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden).filter(u".new-"_s), QStringList());
    // Every later run signs with the new key.
    SigningKeyVault later(m_store->database(), path, nullptr, keyFile);
    const std::optional<SigningKeyVault::Unlocked> unlocked = later.unlock(&error);
    QVERIFY2(unlocked, qPrintable(error));
    QCOMPARE(unlocked->key.publicKey().keyId(), next.keyId());

    QSqlQuery query(m_store->database());
    query.prepare(u"SELECT succession FROM signing_keys WHERE key_id = ?"_s);
    query.addBindValue(next.keyId());
    QVERIFY(query.exec() && query.next());
    const std::optional<SigningKeySuccession> succession =
        SigningKeySuccession::fromText(query.value(0).toString(), next.keyId());
    if (outcome == u"first"_s) {
        QVERIFY(query.value(0).isNull());
        return;
    }
    QVERIFY(succession);
    const auto ids = [](const QList<PublicKey> &keys) {
        QStringList list;
        for (const PublicKey &key : keys)
            list.append(key.keyId());
        return list;
    };
    // The stranger's key is left out, whoever makes the new key.
    const QStringList followed{existing.publicKey().keyId()};
    QCOMPARE(ids(succession->follows()), followed);
    QCOMPARE(ids(made->follows), followed);
    QCOMPARE(ids(made->leftOut), QStringList{stranger.publicKey().keyId()});
    // Whoever holds the new key trusts the old; whoever holds the old trusts the new only
    // if the old key signed for it.
    QCOMPARE(ids(SigningKeySuccession::widen({next}, {*succession})),
             (QStringList{next.keyId(), existing.publicKey().keyId()}));
    const bool vouched = outcome == u"vouched"_s;
    QCOMPARE(succession->vouchedBy(), vouched ? existing.publicKey().keyId() : QString());
    QCOMPARE(made->vouchedBy, succession->vouchedBy());
    QCOMPARE(SigningKeySuccession::widen({existing.publicKey()}, {*succession}).size(), vouched ? 2 : 1);
}

// A key a listed succession follows signs no more, wherever it is still found: a copy of
// the old key file elsewhere, or an old keychain entry a run without the new key reaches.
void TestSigningKeyVault::aSucceededKeySignsNoMore()
{
    const SigningKey old = SigningKey::generate();
    insertRow(old.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    const QString current = m_dir->filePath(u"current.pem"_s);
    const QString copy = m_dir->filePath(u"copy.pem"_s);
    writeFile(current, old.privatePem(), 0600);
    writeFile(copy, old.privatePem(), 0600);
    QString error;
    SigningKeyVault here(m_store->database(), current, nullptr, SigningKeyVault::KeyFile::Named);
    const std::optional<SigningKeyVault::NewKey> made = here.startNewKey({}, &error);
    QVERIFY2(made, qPrintable(error));
    const QString nextId = made->unlocked.key.publicKey().keyId();

    SigningKeyVault elsewhere(m_store->database(), copy, nullptr, SigningKeyVault::KeyFile::Named);
    QVERIFY(!elsewhere.unlock(&error));
    QVERIFY2(error.startsWith(u"key %1 (%2) signs no more: key %3 succeeds it"_s.arg(old.publicKey().keyId(),
                                                                                     copy, nextId)),
             qPrintable(error));
    // A check still finds it: old receipts are verified with it.
    const std::optional<SigningKeyVault::Unlocked> found = elsewhere.find(&error);
    QVERIFY(found);
    QCOMPARE(found->key.publicKey().keyId(), old.publicKey().keyId());
}

// A statement the key did not sign retires nothing: whoever can write the file could
// otherwise stop the owner's key with a key and a statement of their own.
void TestSigningKeyVault::aKeyNotSignedForSignsOn()
{
    const SigningKey owner = SigningKey::generate();
    insertRow(owner.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    const QString ownerFile = m_dir->filePath(u"owner.pem"_s);
    writeFile(ownerFile, owner.privatePem(), 0600);
    QString error;
    // Made without the owner's key, following it.
    SigningKeyVault apart(m_store->database(), m_dir->filePath(u"apart.pem"_s), nullptr,
                          SigningKeyVault::KeyFile::Named);
    const std::optional<SigningKeyVault::NewKey> made =
        apart.startNewKey({owner.publicKey().keyId()}, &error);
    QVERIFY2(made, qPrintable(error));
    QVERIFY(made->vouchedBy.isEmpty());

    SigningKeyVault owners(m_store->database(), ownerFile, nullptr, SigningKeyVault::KeyFile::Named);
    const std::optional<SigningKeyVault::Unlocked> unlocked = owners.unlock(&error);
    QVERIFY2(unlocked, qPrintable(error));
    QCOMPARE(unlocked->key.publicKey().keyId(), owner.publicKey().keyId());
}

// A file listing more keys than Capdesk makes is refused, not read in part.
void TestSigningKeyVault::aFileListingTooManyKeysIsRefused()
{
    const SigningKey held = SigningKey::generate();
    writeFile(keyFile(), held.privatePem(), 0600);
    insertRow(held.publicKey(), u"2026-01-01T00:00:00.000Z"_s);
    QVERIFY(m_store->database().transaction());
    for (int i = 0; i < SigningKeyList::kMaxKeys; ++i)
        insertRow(SigningKey::generate().publicKey(), u"2026-02-01T00:00:00.000Z"_s);
    QVERIFY(m_store->database().commit());
    QString error;
    QVERIFY(!vault().unlock(&error));
    QVERIFY2(error.contains(u"more than 1000 receipt-signing keys"_s), qPrintable(error));
    QVERIFY(vault().publicKeys().isEmpty());
}

void TestSigningKeyVault::keychainHoldsTheKey()
{
    KeychainStore keychain;
    QString why;
    if (!keychain.available(&why))
        QSKIP(qPrintable(why));

    QString error;
    SigningKeyVault keys = vault(&keychain);
    const std::optional<SigningKeyVault::Unlocked> created = keys.unlock(&error);
    QVERIFY2(created, qPrintable(error));
    const QString keyId = created->key.publicKey().keyId();
    const QString entry = u"receipt-signing-key:"_s + keyId;
    m_keychainEntries << entry;
    QCOMPARE(created->storage, Storage::Keychain);
    QCOMPARE(created->location, u"keychain entry "_s + entry);
    QVERIFY(!QFile::exists(keyFile()));
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden).filter(u"signing-key"_s),
             QStringList());
    const KeychainStore::Read stored = keychain.read(entry);
    QCOMPARE(stored.status, KeychainStore::Read::Status::Found);
    QCOMPARE(SigningKey::fromPem(stored.value.toLatin1(), nullptr)->publicKey().keyId(), keyId);
    QCOMPARE(rowCount(), 1);

    SigningKeyVault later = vault(&keychain);
    const std::optional<SigningKeyVault::Unlocked> again = later.unlock(&error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->storage, Storage::Keychain);
    QCOMPARE(again->key.publicKey().keyId(), keyId);
    QCOMPARE(rowCount(), 1);

    // Without the keychain that key is out of reach, and no second key is made by itself.
    SigningKeyVault withoutKeychain = vault();
    QVERIFY(!withoutKeychain.unlock(&error));
    QVERIFY2(error.contains(u"does not hold it"_s), qPrintable(error));
    QVERIFY(!QFile::exists(keyFile()));
    QCOMPARE(rowCount(), 1);

    // A new key on purpose goes to the keychain too, and the key there signs for it.
    const std::optional<SigningKeyVault::NewKey> next = later.startNewKey({}, &error);
    QVERIFY2(next, qPrintable(error));
    const QString nextId = next->unlocked.key.publicKey().keyId();
    m_keychainEntries << u"receipt-signing-key:"_s + nextId;
    QCOMPARE(next->unlocked.storage, Storage::Keychain);
    QVERIFY(nextId != keyId);
    QVERIFY(!QFile::exists(keyFile()));
    QCOMPARE(rowCount(), 2);
    const std::optional<SigningKeyVault::Unlocked> signing = vault(&keychain).unlock(&error);
    QVERIFY2(signing, qPrintable(error));
    QCOMPARE(signing->key.publicKey().keyId(), nextId);
    QSqlQuery query(m_store->database());
    QVERIFY(query.exec(u"SELECT succession FROM signing_keys WHERE key_id = '%1'"_s.arg(nextId))
            && query.next());
    const std::optional<SigningKeySuccession> succession =
        SigningKeySuccession::fromText(query.value(0).toString(), nextId);
    QVERIFY(succession);
    QCOMPARE(succession->vouchedBy(), keyId);
}

void TestSigningKeyVault::asynchronousUnlockFindsWhatTheBlockingOneFinds_data()
{
    QTest::addColumn<bool>("withKeychain");
    QTest::addColumn<bool>("madeBefore"); // a blocking unlock made the key first
    QTest::addColumn<int>("storage");

    QTest::addRow("a new pair in the file") << false << false << int(Storage::File);
    QTest::addRow("the file's key again") << false << true << int(Storage::File);
    QTest::addRow("a new pair in the keychain") << true << false << int(Storage::Keychain);
    QTest::addRow("the keychain's key again") << true << true << int(Storage::Keychain);
}

void TestSigningKeyVault::asynchronousUnlockFindsWhatTheBlockingOneFinds()
{
    QFETCH(bool, withKeychain);
    QFETCH(bool, madeBefore);
    KeychainStore keychain;
    QString why;
    if (withKeychain && !keychain.available(&why))
        QSKIP(qPrintable(why));
    KeychainStore *const place = withKeychain ? &keychain : nullptr;
    QString error;
    QString madeKeyId;
    if (madeBefore) {
        const std::optional<SigningKeyVault::Unlocked> made = vault(place).unlock(&error);
        QVERIFY2(made, qPrintable(error));
        madeKeyId = made->key.publicKey().keyId();
        m_keychainEntries << u"receipt-signing-key:"_s + madeKeyId;
    }

    SigningKeyVault keys = vault(place);
    QObject context;
    std::optional<std::optional<SigningKeyVault::Unlocked>> answer;
    keys.unlockAsync(&context,
                     [&](const std::optional<SigningKeyVault::Unlocked> &key, const QString &reason) {
                         answer = key;
                         error = reason;
                     });
    QVERIFY2(!answer, "an asynchronous unlock must not answer before it returns");
    QTRY_VERIFY(answer);
    QVERIFY2(*answer, qPrintable(error));
    const SigningKeyVault::Unlocked &unlocked = **answer;
    m_keychainEntries << u"receipt-signing-key:"_s + unlocked.key.publicKey().keyId();
    QTEST(int(unlocked.storage), "storage");
    if (madeBefore)
        QCOMPARE(unlocked.key.publicKey().keyId(), madeKeyId);
    QCOMPARE(QFile::exists(keyFile()), !withKeychain);
    QCOMPARE(rowCount(), 1);
}

void TestSigningKeyVault::storageDescriptionNamesThePlace()
{
    const SigningKeyVault::Unlocked inKeychain{SigningKey::generate(), Storage::Keychain,
                                               u"keychain entry receipt-signing-key:0123456789abcdef"_s};
    QVERIFY(SigningKeyVault::storageDescription(inKeychain).contains(u"keychain"_s));
    QVERIFY(SigningKeyVault::storageDescription(inKeychain).contains(inKeychain.location));
    const SigningKeyVault::Unlocked inFile{SigningKey::generate(), Storage::File, keyFile()};
    QVERIFY(SigningKeyVault::storageDescription(inFile).contains(keyFile()));
    QVERIFY(!SigningKeyVault::storageDescription(inFile).contains(u"PRIVATE"_s));
    // A file may be named with --signing-key or found first: no guess at the keychain.
    QVERIFY(!SigningKeyVault::storageDescription(inFile).contains(u"keychain"_s));
}

QTEST_GUILESS_MAIN(TestSigningKeyVault)
#include "tst_signingkeyvault.moc"
