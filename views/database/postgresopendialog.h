#pragma once

#include "dispatch/store/postgresdirectoryprobe.h"

#include <QDialog>
#include <QFutureWatcher>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// File → Open PostgreSQL Directory…: host (or the server's socket folder), port, database,
// user, TLS mode and CA file, and a password that goes into the keychain, never into the
// URL, the settings or the recent list. The URL the form makes is shown as it will be
// opened, or what is wrong with it. Test Connection (off the GUI thread, read-only, no
// migration) says whether the server lets the user in and what the database holds. Open
// accepts with the typed password, or the keychain's; whoever opens the database stores a
// typed one once it has let the user in, so a mistyped password is never kept.
class PostgresOpenDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PostgresOpenDialog)

public:
    explicit PostgresOpenDialog(QWidget *parent = nullptr);

    // Fills the form from a postgresql:// URL (ignored when it is not a valid one).
    void setUrl(const QString &url);
    // The URL the form makes, as Capdesk shows it; empty while the form is not a valid one.
    QString url() const;
    // After Open: the typed password, else the keychain's, else empty (libpq's .pgpass).
    QString password() const { return m_password; }
    // After Open: the password was typed, not read from the keychain.
    bool passwordTyped() const { return m_passwordTyped; }

    void testConnection();
    bool isTesting() const { return m_test.isRunning(); }

    QLineEdit *hostEdit() const { return m_host; }
    QSpinBox *portEdit() const { return m_port; }
    QLineEdit *databaseEdit() const { return m_database; }
    QLineEdit *userEdit() const { return m_user; }
    QComboBox *sslModeBox() const { return m_sslMode; }
    QLineEdit *caFileEdit() const { return m_caFile; }
    QLineEdit *passwordEdit() const { return m_passwordEdit; }
    QLabel *urlLabel() const { return m_urlLabel; }
    QLabel *resultLabel() const { return m_result; }
    QPushButton *testButton() const { return m_testButton; }
    QPushButton *openButton() const { return m_openButton; }

    void accept() override;

signals:
    void testFinished(const PostgresDirectoryProbe::Result &result);

private:
    QWidget *buildForm();
    void chooseCaFile();
    // The URL the fields spell, before it is checked.
    QString spelledUrl() const;
    void updateUrl();
    // Calls `then` with the typed password, else the keychain's (read asynchronously).
    void withPassword(const std::function<void(const QString &)> &then);
    void showResult(const QString &text, bool ok);
    void updateButtons();

    QLineEdit *m_host;
    QSpinBox *m_port;
    QLineEdit *m_database;
    QLineEdit *m_user;
    QComboBox *m_sslMode;
    QLineEdit *m_caFile;
    QLineEdit *m_passwordEdit;
    QLabel *m_urlLabel;
    QLabel *m_result;
    QPushButton *m_testButton;
    QPushButton *m_openButton;
    QString m_url;
    QString m_password;
    bool m_passwordTyped = false;
    // A keychain read or write is under way: Test and Open wait for it.
    bool m_busy = false;
    QFutureWatcher<PostgresDirectoryProbe::Result> m_test;
};
