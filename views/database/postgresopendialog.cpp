#include "views/database/postgresopendialog.h"

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/postgreslocation.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {

constexpr int kDefaultPort = 5432;

QString encoded(const QString &text, const QByteArray &keep = {})
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text, keep));
}

QString optionOf(const PostgresLocation &location, const QString &name)
{
    for (const auto &[option, value] : location.options())
        if (option == name)
            return value;
    return {};
}

} // namespace

PostgresOpenDialog::PostgresOpenDialog(QWidget *parent)
    : QDialog(parent), m_host(new QLineEdit(this)), m_port(new QSpinBox(this)),
      m_database(new QLineEdit(this)), m_user(new QLineEdit(this)), m_sslMode(new QComboBox(this)),
      m_caFile(new QLineEdit(this)), m_passwordEdit(new QLineEdit(this)), m_urlLabel(new QLabel(this)),
      m_result(new QLabel(this)), m_testButton(new QPushButton(tr("&Test Connection"), this)),
      m_openButton(new QPushButton(tr("&Open"), this))
{
    setObjectName(QStringLiteral("postgresOpenDialog"));
    setWindowTitle(tr("Open PostgreSQL Directory"));
    connect(m_testButton, &QPushButton::clicked, this, &PostgresOpenDialog::testConnection);
    connect(&m_test, &QFutureWatcherBase::finished, this, [this] {
        const PostgresDirectoryProbe::Result result = m_test.result();
        showResult(result.found == PostgresDirectoryProbe::Found::Refused
                       ? result.message
                       : tr("Connected in %1 ms. %2").arg(result.elapsedMs).arg(result.message),
                   result.found != PostgresDirectoryProbe::Found::Refused);
        updateButtons();
        emit testFinished(result);
    });

    auto *buttons = new QDialogButtonBox(this);
    m_openButton->setObjectName(QStringLiteral("openDatabase"));
    m_openButton->setDefault(true);
    buttons->addButton(m_openButton, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &PostgresOpenDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildForm(), 1);
    layout->addWidget(buttons);
    // libpq's own default for the user is the login name.
    m_user->setText(qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME")));
    updateUrl();
    resize(600, sizeHint().height());
}

QWidget *PostgresOpenDialog::buildForm()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);
    m_host->setObjectName(QStringLiteral("databaseHost"));
    m_host->setPlaceholderText(tr("db.example.net, 10.0.0.5, or a socket folder such as /run/postgresql"));
    m_port->setObjectName(QStringLiteral("databasePort"));
    m_port->setRange(1, 65535);
    m_port->setValue(kDefaultPort);
    m_database->setObjectName(QStringLiteral("databaseName"));
    m_database->setPlaceholderText(tr("e.g. capdesk"));
    m_user->setObjectName(QStringLiteral("databaseUser"));
    m_sslMode->setObjectName(QStringLiteral("databaseSslMode"));
    m_sslMode->addItem(tr("as libpq chooses (prefer)"), QString());
    for (const char *mode : {"disable", "require", "verify-ca", "verify-full"})
        m_sslMode->addItem(QString::fromLatin1(mode), QString::fromLatin1(mode));
    m_sslMode->setToolTip(tr("verify-full checks the server's certificate and its name: use it across "
                             "any network you do not own."));
    m_caFile->setObjectName(QStringLiteral("databaseCaFile"));
    m_caFile->setPlaceholderText(tr("for verify-ca and verify-full: the server's CA certificates (PEM)"));
    m_passwordEdit->setObjectName(QStringLiteral("databasePassword"));
    m_passwordEdit->setEchoMode(QLineEdit::Password);
    m_passwordEdit->setPlaceholderText(tr("leave empty for the keychain's or ~/.pgpass"));
    auto *passwordNote = new QLabel(tr("A password typed here goes into the keychain, never into the URL, "
                                       "the settings or the recent list."),
                                    page);
    passwordNote->setWordWrap(true);
    passwordNote->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_urlLabel->setObjectName(QStringLiteral("databaseUrl"));
    m_urlLabel->setWordWrap(true);
    m_urlLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setObjectName(QStringLiteral("databaseTestResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testButton->setObjectName(QStringLiteral("testDatabase"));
    for (QLineEdit *edit : {m_host, m_database, m_user, m_caFile})
        connect(edit, &QLineEdit::textChanged, this, &PostgresOpenDialog::updateUrl);
    connect(m_port, &QSpinBox::valueChanged, this, &PostgresOpenDialog::updateUrl);
    connect(m_sslMode, &QComboBox::currentIndexChanged, this, &PostgresOpenDialog::updateUrl);

    form->addRow(tr("&Host"), m_host);
    form->addRow(tr("&Port"), m_port);
    form->addRow(tr("&Database"), m_database);
    form->addRow(tr("&User"), m_user);
    form->addRow(tr("&TLS"), m_sslMode);
    auto *browse = new QPushButton(tr("&Browse…"), page);
    connect(browse, &QPushButton::clicked, this, &PostgresOpenDialog::chooseCaFile);
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(browse);
    // A row whose field is a layout gets no buddy from addRow().
    auto *caLabel = new QLabel(tr("CA &file"), page);
    caLabel->setBuddy(m_caFile);
    form->addRow(caLabel, caRow);
    form->addRow(tr("Pass&word"), m_passwordEdit);
    form->addRow(QString(), passwordNote);
    form->addRow(tr("URL"), m_urlLabel);
    auto *test = new QHBoxLayout;
    test->addWidget(m_testButton);
    test->addStretch();
    form->addRow(QString(), test);
    form->addRow(QString(), m_result);
    return page;
}

void PostgresOpenDialog::chooseCaFile()
{
    const QString chosen = QFileDialog::getOpenFileName(this, tr("CA Certificates"), m_caFile->text(),
                                                        tr("PEM certificates (*.pem *.crt);;All files (*)"));
    if (!chosen.isEmpty())
        m_caFile->setText(chosen);
}

void PostgresOpenDialog::setUrl(const QString &url)
{
    const StoreResult<PostgresLocation> parsed = PostgresLocation::parse(url);
    if (!parsed.ok())
        return;
    const PostgresLocation &location = parsed.value();
    m_host->setText(location.host());
    m_port->setValue(location.port());
    m_database->setText(location.databaseName());
    m_user->setText(location.user());
    m_sslMode->setCurrentIndex(qMax(0, m_sslMode->findData(optionOf(location, QStringLiteral("sslmode")))));
    m_caFile->setText(optionOf(location, QStringLiteral("sslrootcert")));
}

QString PostgresOpenDialog::spelledUrl() const
{
    const QString host = m_host->text().trimmed();
    const QString user = m_user->text().trimmed();
    const bool socket = host.startsWith(u'/');
    QString text = QStringLiteral("postgresql://");
    if (!user.isEmpty())
        text += encoded(user) + u'@';
    if (!socket)
        text += host.contains(u':') ? u'[' + host + u']' : encoded(host, ".-");
    text += QStringLiteral(":%1/").arg(m_port->value()) + encoded(m_database->text().trimmed());
    QStringList options;
    if (socket)
        options.append(QStringLiteral("host=") + encoded(host, "/"));
    if (const QString mode = m_sslMode->currentData().toString(); !mode.isEmpty())
        options.append(QStringLiteral("sslmode=") + mode);
    if (const QString ca = m_caFile->text().trimmed(); !ca.isEmpty())
        options.append(QStringLiteral("sslrootcert=") + encoded(ca, "/"));
    if (!options.isEmpty())
        text += u'?' + options.join(u'&');
    return text;
}

void PostgresOpenDialog::updateUrl()
{
    m_url.clear();
    if (m_host->text().trimmed().isEmpty() || m_database->text().trimmed().isEmpty()) {
        m_urlLabel->setText(tr("Name the host and the database."));
        m_urlLabel->setStyleSheet(QStringLiteral("color: palette(mid);"));
    } else if (const StoreResult<PostgresLocation> location = PostgresLocation::parse(spelledUrl());
               location.ok()) {
        m_url = location.value().display();
        m_urlLabel->setText(m_url);
        m_urlLabel->setStyleSheet(QString());
    } else {
        m_urlLabel->setText(location.error().message);
        m_urlLabel->setStyleSheet(QStringLiteral("color: #b3261e;"));
    }
    showResult(QString(), true);
    updateButtons();
}

QString PostgresOpenDialog::url() const
{
    return m_url;
}

void PostgresOpenDialog::withPassword(const std::function<void(const QString &)> &then)
{
    if (!m_passwordEdit->text().isEmpty()) {
        then(m_passwordEdit->text());
        return;
    }
    const StoreResult<PostgresLocation> location = PostgresLocation::parse(m_url);
    m_busy = true;
    updateButtons();
    showResult(tr("Reading the password from the keychain\u2026"), true);
    KeychainStore().readAsync(
        location.value().keychainName(), this,
        [this, then, asked = location.value().keychainName()](const KeychainStore::Read &read) {
            m_busy = false;
            updateButtons();
            // The form changed while the keychain answered: that password is another database's.
            const StoreResult<PostgresLocation> now = PostgresLocation::parse(m_url);
            if (!now.ok() || now.value().keychainName() != asked) {
                showResult(tr("The connection changed while its password was read: press again."), true);
                return;
            }
            then(read.status == KeychainStore::Read::Status::Found ? read.value : QString());
        });
}

void PostgresOpenDialog::testConnection()
{
    if (m_url.isEmpty() || m_busy || m_test.isRunning())
        return;
    withPassword([this](const QString &password) {
        showResult(tr("Testing %1\u2026").arg(m_url), true);
        m_testButton->setEnabled(false);
        m_test.setFuture(QtConcurrent::run(
            [url = m_url, password] { return PostgresDirectoryProbe::probe(url, password); }));
    });
}

void PostgresOpenDialog::accept()
{
    if (m_url.isEmpty() || m_busy)
        return;
    m_passwordTyped = !m_passwordEdit->text().isEmpty();
    withPassword([this](const QString &password) {
        m_password = password;
        QDialog::accept();
    });
}

void PostgresOpenDialog::showResult(const QString &text, bool ok)
{
    m_result->setText(text);
    m_result->setStyleSheet(ok ? QString() : QStringLiteral("color: #b3261e;"));
    // A server's refusal runs to several lines: the dialog grows to show it whole.
    if (const int needed = layout()->totalHeightForWidth(width()); needed > height())
        resize(width(), needed);
}

void PostgresOpenDialog::updateButtons()
{
    const bool ready = !m_url.isEmpty() && !m_busy;
    m_testButton->setEnabled(ready && !m_test.isRunning());
    m_openButton->setEnabled(ready);
}
