#pragma once

#include <QString>
#include <QStringList>

// Every question the GUI asks the user and every message it shows, behind one interface,
// so controllers never open a dialog themselves and tests can answer without a modal loop.
class Prompter
{
public:
    enum class UnsavedChoice { Save, Discard, Cancel };
    enum class ExportFormat { Json, Sql };

    struct ExportTarget
    {
        QString path; // empty: cancelled
        ExportFormat format = ExportFormat::Json;
    };

    virtual ~Prompter() = default;

    virtual bool confirmDelete(const QStringList &keys) = 0;
    virtual bool confirmRevert(int rows) = 0;
    // Removing a keychain value cannot be undone: the value is not kept anywhere else.
    virtual bool confirmRemoveSecret(const QString &name) = 0;
    virtual UnsavedChoice askUnsaved(const QString &location, int rows) = 0;
    virtual bool askFillWithSamples() = 0;
    // An import refused for rows that break hygiene rules (`refusal` names each row's codes):
    // whether to import them as they are, as `capdeskctl import --allow-noncompliant` does.
    virtual bool confirmImportNoncompliant(const QString &refusal) = 0;
    // Revoking a capability token is final: whoever holds it is refused from then on.
    virtual bool confirmRevokeToken(const QString &id, const QString &label) = 0;
    // Whether to sign receipts with a new key from now on; `heldKeyId` is the key held here,
    // empty when this machine holds none of the directory's keys, which the new key then
    // follows on the owner's word: `listedIds` are those keys.
    virtual bool confirmNewSigningKey(const QString &heldKeyId, const QStringList &listedIds) = 0;
    // A call that changes the world (`effects`, one line each, "KEY: what it does") asks
    // first. Setting `*stopAsking` turns the question off for `key` until the app closes.
    virtual bool confirmWorldEffects(const QString &key, const QStringList &effects, bool *stopAsking) = 0;

    // File choosers start near `near` (a file or folder) and return "" when cancelled.
    virtual QString chooseOpenPath(const QString &near) = 0;
    virtual QString chooseNewPath(const QString &near) = 0;
    virtual QString chooseImportPath(const QString &near) = 0;
    virtual ExportTarget chooseExportTarget(const QString &near) = 0;
    // The receipt viewer: an exported receipt to verify, a public key (PEM) to verify it
    // with, and where to export a receipt (`near` is the suggested file).
    virtual QString chooseReceiptFile(const QString &near) = 0;
    virtual QString choosePublicKeyFile(const QString &near) = 0;
    virtual QString chooseReceiptExportPath(const QString &near) = 0;
    virtual QString choosePublicKeyExportPath(const QString &near) = 0;
    // Where to write the lint report; a name ending in .csv asks for CSV, anything else JSON.
    virtual QString chooseLintReportPath(const QString &near) = 0;

    virtual void showError(const QString &title, const QString &message) = 0;
    virtual void showInfo(const QString &title, const QString &message) = 0;
};
