#include "views/remote/connectdialog.h"

#include "dispatch/runners/tlstrust.h"
#include "remote/serverconnection.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {

// How long the connection test waits for each answer: long enough for a slow network,
// short enough that a wrong address says so soon.
constexpr int kTestTimeoutMs = 5000;

} // namespace

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent), m_profiles(new QListWidget(this)), m_name(new QLineEdit(this)),
      m_url(new QLineEdit(this)), m_key(new QLineEdit(this)), m_caFile(new QLineEdit(this)),
      m_pollSeconds(new QSpinBox(this)), m_keyState(new QLabel(this)), m_result(new QLabel(this)),
      m_testButton(new QPushButton(tr("&Test Connection"), this)),
      m_connectButton(new QPushButton(tr("&Connect"), this)),
      m_deleteButton(new QPushButton(tr("&Delete Profile"), this))
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect to Server"));
    m_profiles->setObjectName(QStringLiteral("serverProfiles"));
    connect(m_profiles, &QListWidget::currentTextChanged, this, [this](const QString &name) {
        if (!name.isEmpty())
            selectProfile(name);
    });
    auto *newProfile = new QPushButton(tr("&New Profile"), this);
    connect(newProfile, &QPushButton::clicked, this, [this] {
        m_profiles->clearSelection();
        selectProfile(QString());
        m_name->setFocus();
    });
    connect(m_testButton, &QPushButton::clicked, this, &ConnectDialog::testConnection);
    connect(m_deleteButton, &QPushButton::clicked, this, &ConnectDialog::deleteProfile);
    connect(&m_test, &QFutureWatcherBase::finished, this, [this] {
        const ConnectionCheck check = m_test.result();
        m_tested.reset();
        showResult(check.message, check.ok);
        updateButtons();
        emit testFinished(check);
    });

    auto *left = new QVBoxLayout;
    left->addWidget(m_profiles, 1);
    left->addWidget(newProfile);
    left->addWidget(m_deleteButton);

    auto *buttons = new QDialogButtonBox(this);
    m_connectButton->setDefault(true);
    buttons->addButton(m_connectButton, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addWidget(buildForm(), 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    reloadProfiles(QString());
    resize(720, 340);
}

ConnectDialog::~ConnectDialog()
{
    m_test.waitForFinished();
}

QWidget *ConnectDialog::buildForm()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_name->setObjectName(QStringLiteral("profileName"));
    m_name->setPlaceholderText(tr("e.g. production"));
    m_url->setObjectName(QStringLiteral("profileUrl"));
    m_url->setPlaceholderText(tr("http://127.0.0.1:8787 or https://capdesk.example"));
    m_key->setObjectName(QStringLiteral("profileKey"));
    m_key->setEchoMode(QLineEdit::Password);
    m_keyState->setObjectName(QStringLiteral("profileKeyState"));
    m_keyState->setWordWrap(true);
    m_keyState->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_result->setObjectName(QStringLiteral("connectionTestResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_connectButton->setObjectName(QStringLiteral("connect"));
    m_deleteButton->setObjectName(QStringLiteral("deleteProfile"));
    for (QLineEdit *edit : {m_name, m_url, m_key})
        connect(edit, &QLineEdit::textChanged, this, &ConnectDialog::updateButtons);

    form->addRow(tr("&Name"), m_name);
    form->addRow(tr("&Address"), m_url);
    form->addRow(tr("Owner &key"), m_key);
    form->addRow(QString(), m_keyState);
    // A row whose field is a layout gets no buddy from addRow(), so its mnemonic would
    // show as a literal '&'.
    auto *caLabel = new QLabel(tr("CA &file"), page);
    caLabel->setBuddy(m_caFile);
    form->addRow(caLabel, buildCaFileRow());
    setUpPollInterval();
    form->addRow(tr("Check for c&hanges"), m_pollSeconds);
    auto *test = new QHBoxLayout;
    test->addWidget(m_testButton);
    test->addStretch();
    form->addRow(QString(), test);
    form->addRow(QString(), m_result);
    return page;
}

void ConnectDialog::setUpPollInterval()
{
    m_pollSeconds->setObjectName(QStringLiteral("profilePollSeconds"));
    m_pollSeconds->setRange(0, ServerProfile::maxPollSeconds);
    m_pollSeconds->setSuffix(tr(" s"));
    m_pollSeconds->setPrefix(tr("every "));
    // 0 is not "never": it leaves the interval to what the server can answer cheaply.
    m_pollSeconds->setSpecialValueText(tr("as the server suggests (5 s, or 60 s for a plain server)"));
    m_pollSeconds->setToolTip(
        tr("How soon rows written elsewhere (another owner, an agent) appear here. "
           "capdeskctl serve answers each check with only what changed; a plain "
           "SPEC §10 server has to send its whole listing, so it is asked less often."));
}

QLayout *ConnectDialog::buildCaFileRow()
{
    m_caFile->setObjectName(QStringLiteral("profileCaFile"));
    m_caFile->setPlaceholderText(tr("optional, for https: PEM certificates trusted beside the system's"));
    m_caFile->setToolTip(tr("A private CA, or a self-signed server's own certificate. It adds to the "
                            "system's trusted certificates and never replaces them."));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(QStringLiteral("chooseCaFile"));
    connect(browse, &QPushButton::clicked, this, &ConnectDialog::chooseCaFile);
    auto *row = new QHBoxLayout;
    row->addWidget(m_caFile, 1);
    row->addWidget(browse);
    return row;
}

void ConnectDialog::chooseCaFile()
{
    const QString chosen = QFileDialog::getOpenFileName(this, tr("CA Certificates"), m_caFile->text(),
                                                        tr("PEM certificates (*.pem *.crt);;All files (*)"));
    if (!chosen.isEmpty())
        m_caFile->setText(chosen);
}

void ConnectDialog::reloadProfiles(const QString &select)
{
    const QSignalBlocker blocker(m_profiles);
    m_profiles->clear();
    for (const ServerProfile &profile : ServerProfileStore::profiles()) {
        auto *item = new QListWidgetItem(profile.name, m_profiles);
        item->setToolTip(profile.url.toString());
        if (profile.name == select)
            m_profiles->setCurrentItem(item);
    }
    if (!m_profiles->currentItem() && m_profiles->count() > 0 && select.isEmpty())
        m_profiles->setCurrentRow(0);
    selectProfile(m_profiles->currentItem() ? m_profiles->currentItem()->text() : select);
}

void ConnectDialog::selectProfile(const QString &name)
{
    const std::optional<ServerProfile> saved = ServerProfileStore::profile(name);
    m_name->setText(name);
    m_url->setText(saved ? saved->url.toString() : QString());
    m_caFile->setText(saved ? saved->caFile : QString());
    m_pollSeconds->setValue(saved ? saved->pollSeconds : 0);
    m_key->clear();
    m_storedKey.clear();
    if (saved) {
        readStoredKey(name);
    } else {
        ++m_keyReads;
        m_readingKey = false;
        m_keyState->setText(tr("The key goes into the keychain, never into the settings file."));
    }
    if (QListWidgetItem *item = saved ? m_profiles->findItems(name, Qt::MatchExactly).value(0) : nullptr) {
        const QSignalBlocker blocker(m_profiles);
        m_profiles->setCurrentItem(item);
    }
    showResult(QString(), true);
    updateButtons();
}

void ConnectDialog::readStoredKey(const QString &name)
{
    const int read = ++m_keyReads;
    m_readingKey = true;
    m_keyState->setText(tr("Reading the key from the keychain\u2026"));
    ServerProfileStore::ownerKeyAsync(name, this, [this, read](const KeychainStore::Read &key) {
        if (read == m_keyReads)
            showStoredKey(key);
    });
}

void ConnectDialog::showStoredKey(const KeychainStore::Read &key)
{
    m_readingKey = false;
    m_storedKey = key.status == KeychainStore::Read::Status::Found ? key.value : QString();
    m_keyState->setText(key.status == KeychainStore::Read::Status::Found
                            ? tr("A key is stored in the keychain; type one only to replace it.")
                        : key.status == KeychainStore::Read::Status::NotFound
                            ? tr("No key is stored for this profile.")
                            : tr("The keychain cannot be read: %1").arg(key.error));
    updateButtons();
}

bool ConnectDialog::keyKnown() const
{
    return !m_readingKey || !m_key->text().isEmpty();
}

void ConnectDialog::focusKey()
{
    m_key->setFocus(Qt::OtherFocusReason);
}

ServerProfile ConnectDialog::profile() const
{
    return {m_name->text().trimmed(), QUrl::fromUserInput(m_url->text().trimmed()),
            m_caFile->text().trimmed(), m_pollSeconds->value()};
}

QString ConnectDialog::ownerKey() const
{
    if (!m_key->text().isEmpty())
        return m_key->text();
    if (!m_storedKey.isEmpty())
        return m_storedKey;
    return qEnvironmentVariable("CAPDESK_TERMINAL_KEY");
}

void ConnectDialog::testConnection()
{
    if (m_test.isRunning() || !keyKnown())
        return;
    const ServerProfile server = profile();
    if (const QString problem = ServerProfileStore::urlProblem(server.url); !problem.isEmpty()) {
        showResult(problem, false);
        return;
    }
    if (const QString problem = server.caFile.isEmpty() ? QString() : TlsTrust::caFileProblem(server.caFile);
        !problem.isEmpty()) {
        showResult(problem, false);
        return;
    }
    m_tested = std::make_shared<ServerConnection>(
        ServerEndpoint{server.url, ownerKey(), kTestTimeoutMs, server.caFile});
    showResult(tr("Testing %1…").arg(m_tested->location()), true);
    m_testButton->setEnabled(false);
    m_test.setFuture(QtConcurrent::run([connection = m_tested.get()] { return connection->check(); }));
}

void ConnectDialog::deleteProfile()
{
    const QString name = m_name->text().trimmed();
    if (!ServerProfileStore::profile(name))
        return;
    ServerProfileStore::removeAsync(name, this, [this, name](const QString &why) {
        showResult(why.isEmpty() ? tr("Deleted the profile %1 and its stored key.").arg(name) : why,
                   why.isEmpty());
    });
    reloadProfiles(QString());
    showResult(tr("Deleting the key of %1 from the keychain\u2026").arg(name), true);
}

void ConnectDialog::accept()
{
    if (!keyKnown() || m_storingKey)
        return;
    const ServerProfile server = profile();
    m_keyWarning.clear();
    if (const QString problem = ServerProfileStore::problemOf(server); !problem.isEmpty()) {
        showResult(problem, false);
        return;
    }
    if (m_key->text().isEmpty()) {
        ServerProfileStore::save(server, QString());
        QDialog::accept();
        return;
    }
    m_storingKey = true;
    showResult(tr("Storing the key in the keychain\u2026"), true);
    updateButtons();
    ServerProfileStore::saveAsync(server, m_key->text(), this, [this, server](const QString &why) {
        m_storingKey = false;
        if (!why.isEmpty()) {
            // No keychain: the profile is kept without its key, which is used for this session only.
            m_keyWarning = why;
            ServerProfileStore::save(server, QString());
        }
        QDialog::accept();
    });
}

void ConnectDialog::showResult(const QString &text, bool ok)
{
    m_result->setText(text);
    m_result->setStyleSheet(ok ? QString() : QStringLiteral("color: #b3261e;"));
}

void ConnectDialog::updateButtons()
{
    const bool named = !m_name->text().trimmed().isEmpty();
    const bool addressed = !m_url->text().trimmed().isEmpty();
    m_testButton->setEnabled(addressed && !m_test.isRunning() && keyKnown());
    m_connectButton->setEnabled(named && addressed && keyKnown() && !m_storingKey);
    m_deleteButton->setEnabled(ServerProfileStore::profile(m_name->text().trimmed()).has_value());
}
