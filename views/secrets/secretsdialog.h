#pragma once

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/directorystore.h"
#include "models/serialjobqueue.h"

#include <QDialog>

#include <memory>

class MemorySecrets;
class Prompter;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class SecretListModel;

// Tools → Secrets…: every secret NAME the directory's rows refer to, how many rows use it
// and whether the environment, the keychain or this run's memory has a value (SPEC §3
// Auth). A value can be set, replaced or deleted; it is typed into a masked field and never
// shown again, not even as its length. It goes to the keychain; without a Secret Service it
// is kept in `memory` instead, only until Capdesk closes, and a banner says so in plain
// words (the Secret Service's own error is in its tooltip). The keychain is only ever asked
// asynchronously: the list shows "checking…" until it answers, and Set and Delete stay
// disabled until it has said whether it is there, and while their own job runs. A server's
// rows are read on a worker too: until they arrive the dialog says it is reading them.
class SecretsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretsDialog)

public:
    SecretsDialog(std::shared_ptr<const DirectoryStore> store, KeychainStore &keychain, MemorySecrets &memory,
                  Prompter &prompter, QWidget *parent = nullptr);
    ~SecretsDialog() override;

    SecretListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    bool keychainAvailable() const { return m_keychainAvailable; }

    // Reads the names from the store and their origins again, keeping the selection.
    void refresh();
    // The store's rows are on their way from a server.
    bool isReadingRows() const { return m_readingRows; }
    void selectName(const QString &name);
    // Shows the masked field for the selected name.
    void beginEntry();
    // Writes what was typed to the keychain (or, without one, to memory) and forgets it.
    void storeEntry();
    void cancelEntry();
    // Deletes the selected name's value from the keychain and from memory, after asking.
    void removeSelected();

signals:
    // The names the rows refer to are shown (or why they could not be read was said).
    void rowsRead();
    // A set or delete has been answered and the keychain asked again (a value kept in memory
    // is answered before storeEntry() or removeSelected() returns).
    void writeFinished();

private:
    // A set or delete sent to the keychain and not answered yet.
    bool isWriting() const { return m_writing; }
    // The keychain said it does not answer: values go to memory.
    bool keepsInMemory() const { return m_availabilityKnown && !m_keychainAvailable; }
    QString selectedName() const;
    void readUsageInBackground();
    void showUsage(const StoreResult<QList<AuthUsage>> &usage);
    void updateActions();
    void showAvailability(const KeychainStore::Outcome &availability);
    void showMemoryColumn();
    // `failure` is empty when the keychain did as asked.
    void finishWrite(const QString &name, const QString &failure);

    std::shared_ptr<const DirectoryStore> m_store;
    SerialJobQueue m_reads;
    bool m_readingRows = false;
    // Which read an answer is for: one overtaken by a later refresh() is dropped.
    quint64 m_readGeneration = 0;
    quint64 m_pendingRead = 0;
    KeychainStore &m_keychain;
    MemorySecrets &m_memory;
    Prompter &m_prompter;
    bool m_availabilityKnown = false;
    bool m_keychainAvailable = false;
    bool m_writing = false;
    SecretListModel *m_model;
    QLabel *m_banner;
    QLabel *m_activity;
    QLabel *m_malformed;
    QTableView *m_table;
    QWidget *m_entry;
    QLabel *m_entryLabel;
    QLineEdit *m_value;
    QPushButton *m_storeButton;
    QPushButton *m_setButton;
    QPushButton *m_removeButton;
    QString m_entryName;
};
