#pragma once

#include "views/common/prompter.h"

#include <QCoreApplication>

class QWidget;

// The real prompts: QMessageBox and QFileDialog, parented to the main window.
class MessageBoxPrompter final : public Prompter
{
    Q_DECLARE_TR_FUNCTIONS(MessageBoxPrompter)

public:
    explicit MessageBoxPrompter(QWidget *parent);

    bool confirmDelete(const QStringList &keys) override;
    bool confirmRevert(int rows) override;
    bool confirmRemoveSecret(const QString &name) override;
    UnsavedChoice askUnsaved(const QString &location, int rows) override;
    bool askFillWithSamples() override;
    bool confirmImportNoncompliant(const QString &refusal) override;
    bool confirmRevokeToken(const QString &id, const QString &label) override;
    bool confirmNewSigningKey(const QString &heldKeyId, const QStringList &listedIds) override;
    bool confirmWorldEffects(const QString &key, const QStringList &effects, bool *stopAsking) override;

    QString chooseOpenPath(const QString &near) override;
    QString chooseNewPath(const QString &near) override;
    QString chooseImportPath(const QString &near) override;
    ExportTarget chooseExportTarget(const QString &near) override;
    QString chooseReceiptFile(const QString &near) override;
    QString choosePublicKeyFile(const QString &near) override;
    QString chooseReceiptExportPath(const QString &near) override;
    QString choosePublicKeyExportPath(const QString &near) override;
    QString chooseLintReportPath(const QString &near) override;

    void showError(const QString &title, const QString &message) override;
    void showInfo(const QString &title, const QString &message) override;

private:
    static QString directoryFilter();

    QWidget *m_parent;
};
