#include "views/common/messageboxprompter.h"

#include "views/common/rowstext.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace {

QString folderOf(const QString &near)
{
    const QFileInfo info(near);
    return info.isDir() ? near : info.absolutePath();
}

} // namespace

MessageBoxPrompter::MessageBoxPrompter(QWidget *parent) : m_parent(parent) {}

QString MessageBoxPrompter::directoryFilter()
{
    return tr("Capability directories (*.db *.sqlite *.sqlite3);;All files (*)");
}

bool MessageBoxPrompter::confirmDelete(const QStringList &keys)
{
    // Name the keys so the user sees exactly what goes; a long selection is cut short.
    constexpr int shown = 12;
    QString question = tr("Delete %1?").arg(keys.value(0));
    QString details;
    if (keys.size() > 1) {
        question = tr("Delete %1?").arg(RowsText::rows(int(keys.size())));
        details = keys.mid(0, shown).join(QStringLiteral(", "));
        if (keys.size() > shown)
            details += tr(" and %1 more").arg(keys.size() - shown);
        details += QStringLiteral("\n\n");
    }
    details += tr("Deleted rows stay in the file until you save; Undo brings them back.");

    QMessageBox box(QMessageBox::Question, tr("Delete Rows"), question, QMessageBox::NoButton, m_parent);
    box.setInformativeText(details);
    QPushButton *remove = box.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == remove;
}

bool MessageBoxPrompter::confirmRevert(int rows)
{
    const auto answer = QMessageBox::question(
        m_parent, tr("Revert"),
        tr("Discard the unsaved changes to %1? Undo can bring them back until you close the file.")
            .arg(RowsText::rows(rows)),
        QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Discard;
}

bool MessageBoxPrompter::confirmRemoveSecret(const QString &name)
{
    const auto answer = QMessageBox::question(
        m_parent, tr("Delete Secret"),
        tr("Delete the value of %1 set in Capdesk (in the keychain, or kept in memory)? It cannot be "
           "undone; rows using %1 send no credential until it is set again or comes from the environment.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Yes;
}

Prompter::UnsavedChoice MessageBoxPrompter::askUnsaved(const QString &location, int rows)
{
    QMessageBox box(
        QMessageBox::Warning, tr("Unsaved Changes"),
        tr("%1 has unsaved changes to %2.").arg(QFileInfo(location).fileName(), RowsText::rows(rows)),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_parent);
    box.setInformativeText(tr("Save them before continuing?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return UnsavedChoice::Save;
    case QMessageBox::Discard:
        return UnsavedChoice::Discard;
    default:
        return UnsavedChoice::Cancel;
    }
}

bool MessageBoxPrompter::confirmRevokeToken(const QString &id, const QString &label)
{
    const QString name = label.isEmpty() ? id : tr("%1 (%2)").arg(id, label);
    return QMessageBox::question(m_parent, tr("Revoke Token"),
                                 tr("Revoke %1? Every call presenting it is refused from now on. "
                                    "This cannot be undone.")
                                     .arg(name),
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
           == QMessageBox::Yes;
}

bool MessageBoxPrompter::confirmNewSigningKey(const QString &heldKeyId, const QStringList &listedIds)
{
    QString text;
    if (listedIds.isEmpty())
        text = tr("Make this directory's first receipt key now? Otherwise the first call makes it.");
    else if (!heldKeyId.isEmpty())
        text = tr("Sign receipts with a new key from now on?\n\nKey %1, held here, signs for the new key, "
                  "and the "
                  "new key vouches for the keys %1 trusts, so whoever holds either trusts the receipts of "
                  "both. A "
                  "key file holding %1 is replaced by the new key.")
                   .arg(heldKeyId);
    else
        text = tr("Sign receipts with a new key from now on?\n\nNo key of the directory's was found here. "
                  "Unless one is found after all (it then decides), the new key will vouch for every key the "
                  "directory lists:\n\n    %1\n\nCheck them against your own records: whoever can write the "
                  "file can list a key of their own. To vouch for some only, run capdeskctl signing-key new "
                  "--follow ID,… instead. Whoever holds an older key will read the new receipts as another "
                  "key's.")
                   .arg(listedIds.join(u"\n    "_s));
    return QMessageBox::question(m_parent, tr("Start a New Receipt Key"), text,
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
           == QMessageBox::Yes;
}

bool MessageBoxPrompter::confirmWorldEffects(const QString &key, const QStringList &effects, bool *stopAsking)
{
    QMessageBox box(QMessageBox::Warning, tr("Run %1 for Real?").arg(key),
                    tr("Running %1 changes things outside Capdesk:").arg(key), QMessageBox::NoButton,
                    m_parent);
    box.setInformativeText(u"• "_s + effects.join(u"\n• "_s));
    QPushButton *run = box.addButton(tr("&Run"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    auto *noMore = new QCheckBox(tr("&Don't ask again for %1 until Capdesk closes").arg(key), &box);
    box.setCheckBox(noMore);
    box.exec();
    const bool accepted = box.clickedButton() == run;
    if (stopAsking)
        *stopAsking = accepted && noMore->isChecked();
    return accepted;
}

bool MessageBoxPrompter::askFillWithSamples()
{
    return QMessageBox::question(m_parent, tr("New Directory"),
                                 tr("Fill the new directory with the sample capabilities?"),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes)
           == QMessageBox::Yes;
}

bool MessageBoxPrompter::confirmImportNoncompliant(const QString &refusal)
{
    QMessageBox box(QMessageBox::Warning, tr("Import Non-compliant Rows?"),
                    tr("Some rows break hygiene rules. Import them as they are (they are listed with their "
                       "codes in the Lint panel), or import nothing?"),
                    QMessageBox::NoButton, m_parent);
    box.setDetailedText(refusal);
    QPushButton *import = box.addButton(tr("Import As They Are"), QMessageBox::AcceptRole);
    box.addButton(tr("Import Nothing"), QMessageBox::RejectRole);
    box.exec();
    return box.clickedButton() == import;
}

QString MessageBoxPrompter::chooseOpenPath(const QString &near)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Open Directory"), folderOf(near), directoryFilter());
}

QString MessageBoxPrompter::chooseNewPath(const QString &near)
{
    // An existing file is refused later rather than overwritten, so don't ask to replace it.
    return QFileDialog::getSaveFileName(m_parent, tr("New Directory"), folderOf(near), directoryFilter(),
                                        nullptr, QFileDialog::DontConfirmOverwrite);
}

QString MessageBoxPrompter::chooseImportPath(const QString &near)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Import Rows"), folderOf(near),
                                        tr("SQL dumps or JSON rows (*.sql *.json);;All files (*)"));
}

Prompter::ExportTarget MessageBoxPrompter::chooseExportTarget(const QString &near)
{
    const QString json = tr("JSON rows (*.json)");
    const QString sql = tr("SQL dump (*.sql)");
    QString chosen = json;
    const QString path = QFileDialog::getSaveFileName(m_parent, tr("Export Rows"), folderOf(near),
                                                      json + QStringLiteral(";;") + sql, &chosen);
    ExportTarget target;
    if (path.isEmpty())
        return target;
    // The chosen filter decides the format; a name without a suffix gets the filter's.
    target.format = chosen == sql ? ExportFormat::Sql : ExportFormat::Json;
    target.path = path;
    if (QFileInfo(path).suffix().isEmpty())
        target.path += target.format == ExportFormat::Sql ? QStringLiteral(".sql") : QStringLiteral(".json");
    return target;
}

QString MessageBoxPrompter::chooseReceiptFile(const QString &near)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Verify a Receipt File"), folderOf(near),
                                        tr("Receipts (*.json);;All files (*)"));
}

QString MessageBoxPrompter::choosePublicKeyFile(const QString &near)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Public Key"), folderOf(near),
                                        tr("PEM public keys (*.pem *.pub);;All files (*)"));
}

QString MessageBoxPrompter::chooseReceiptExportPath(const QString &near)
{
    return QFileDialog::getSaveFileName(m_parent, tr("Export Receipt"), near, tr("Receipts (*.json)"));
}

QString MessageBoxPrompter::choosePublicKeyExportPath(const QString &near)
{
    return QFileDialog::getSaveFileName(m_parent, tr("Export Receipt Public Key"), near,
                                        tr("PEM public keys (*.pem)"));
}

QString MessageBoxPrompter::chooseLintReportPath(const QString &near)
{
    const QString json = tr("JSON (*.json)");
    const QString csv = tr("CSV (*.csv)");
    QString chosen = json;
    QString path = QFileDialog::getSaveFileName(m_parent, tr("Export Lint Report"), near,
                                                json + QStringLiteral(";;") + csv, &chosen);
    // The chosen filter decides when the name has no suffix of its own.
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += chosen == csv ? QStringLiteral(".csv") : QStringLiteral(".json");
    return path;
}

void MessageBoxPrompter::showError(const QString &title, const QString &message)
{
    QMessageBox::critical(m_parent, title, message);
}

void MessageBoxPrompter::showInfo(const QString &title, const QString &message)
{
    QMessageBox::information(m_parent, title, message);
}
