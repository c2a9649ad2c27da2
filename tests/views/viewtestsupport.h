#pragma once

// Shared by the views tests: a Prompter that answers from fields instead of dialogs, and
// a directory file in a temporary folder holding a few known rows.

#include "dispatch/store/sqldirectorystore.h"
#include "views/common/prompter.h"

#include <QList>
#include <QTemporaryDir>
#include <QTest>
#include <QTestEventLoop>
#include <QTimer>

#include <functional>
#include <memory>

class FakePrompter final : public Prompter
{
public:
    // Answers.
    bool deleteAnswer = false;
    bool revertAnswer = true;
    bool removeSecretAnswer = false;
    UnsavedChoice unsavedAnswer = UnsavedChoice::Cancel;
    bool samplesAnswer = false;
    bool importNoncompliantAnswer = false;
    QString openPath;
    QString newPath;
    QString importPath;
    ExportTarget exportTarget;
    QString receiptFile;
    QString publicKeyFile;
    QString receiptExportPath;
    QString publicKeyExportPath;
    QString lintReportPath;
    bool revokeTokenAnswer = false;
    bool newSigningKeyAnswer = false;
    QList<QStringList> newSigningKeyQuestions; // the key held here, then the keys listed
    QStringList revokeTokenQuestions;
    bool worldEffectsAnswer = false;
    bool worldEffectsStopAsking = false;
    QList<QStringList> worldEffectsQuestions; // the key, then each effect line

    // What was asked or shown.
    QList<QStringList> deleteQuestions;
    int revertQuestions = 0;
    QStringList removeSecretQuestions;
    QStringList unsavedQuestions;
    QStringList importNoncompliantQuestions;
    QStringList errors;
    QStringList infos;

    bool confirmDelete(const QStringList &keys) override
    {
        deleteQuestions.append(keys);
        return deleteAnswer;
    }
    bool confirmRemoveSecret(const QString &name) override
    {
        removeSecretQuestions.append(name);
        return removeSecretAnswer;
    }
    bool confirmRevert(int) override
    {
        ++revertQuestions;
        return revertAnswer;
    }
    UnsavedChoice askUnsaved(const QString &location, int) override
    {
        unsavedQuestions.append(location);
        return unsavedAnswer;
    }
    bool askFillWithSamples() override { return samplesAnswer; }
    bool confirmImportNoncompliant(const QString &refusal) override
    {
        importNoncompliantQuestions.append(refusal);
        return importNoncompliantAnswer;
    }
    QString chooseOpenPath(const QString &) override { return openPath; }
    QString chooseNewPath(const QString &) override { return newPath; }
    QString chooseImportPath(const QString &) override { return importPath; }
    ExportTarget chooseExportTarget(const QString &) override { return exportTarget; }
    QString chooseReceiptFile(const QString &) override { return receiptFile; }
    QString choosePublicKeyFile(const QString &) override { return publicKeyFile; }
    QString chooseReceiptExportPath(const QString &) override { return receiptExportPath; }
    QString choosePublicKeyExportPath(const QString &) override { return publicKeyExportPath; }
    QString chooseLintReportPath(const QString &) override { return lintReportPath; }
    bool confirmRevokeToken(const QString &id, const QString &) override
    {
        revokeTokenQuestions.append(id);
        return revokeTokenAnswer;
    }
    bool confirmNewSigningKey(const QString &heldKeyId, const QStringList &listedIds) override
    {
        newSigningKeyQuestions.append(QStringList{heldKeyId} + listedIds);
        return newSigningKeyAnswer;
    }
    bool confirmWorldEffects(const QString &key, const QStringList &effects, bool *stopAsking) override
    {
        worldEffectsQuestions.append(QStringList{key} + effects);
        if (stopAsking)
            *stopAsking = worldEffectsAnswer && worldEffectsStopAsking;
        return worldEffectsAnswer;
    }
    void showError(const QString &title, const QString &message) override
    {
        errors.append(title + QStringLiteral(": ") + message);
    }
    void showInfo(const QString &title, const QString &message) override
    {
        infos.append(title + QStringLiteral(": ") + message);
    }
};

inline Row makeRow(const QString &key, const QString &type, const QString &target, const QString &category,
                   const QString &content = {})
{
    Row row;
    row.key = key;
    row.type = type;
    row.target = target;
    row.category = category;
    row.content = content;
    row.updatedAt = QStringLiteral("2026-01-02T03:04:05.678Z");
    row.createdAt = row.updatedAt;
    return row;
}

// The rows most tests start from: one of each type, two categories and one without.
inline QList<Row> sampleRows()
{
    return {
        makeRow(QStringLiteral("NOW"), QStringLiteral("fn"), QStringLiteral("now"), QStringLiteral("time"),
                QStringLiteral("# WHAT: the time\n# ARGS: none\n")),
        makeRow(QStringLiteral("ECHO_BACK"), QStringLiteral("fn"), QStringLiteral("echo"),
                QStringLiteral("text"), QStringLiteral("# WHAT: echo\n[\"$1\"]\n")),
        makeRow(QStringLiteral("WEATHER_NOW"), QStringLiteral("http"),
                QStringLiteral("GET https://api.example.com/weather/$1"), QStringLiteral("weather"),
                QStringLiteral("# WHAT: weather for a city\nneedle-in-content\n")),
        makeRow(QStringLiteral("TRIAGE"), QStringLiteral("agent"), QStringLiteral("grok-4"), QString()),
        makeRow(QStringLiteral("MORNING"), QStringLiteral("flow"), QString(), QStringLiteral("time"),
                QStringLiteral("NOW > ECHO_BACK")),
    };
}

// Fails the calling test (and returns null) when the store cannot be set up.
inline std::shared_ptr<SqlDirectoryStore> openStoreWithRows(const QString &path, const QList<Row> &rows)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(path);
    if (!store.ok()) {
        qWarning("cannot open %s: %s", qPrintable(path), qPrintable(store.error().message));
        return nullptr;
    }
    if (!rows.isEmpty()) {
        const StoreError error = store.value()->importRows(rows);
        if (error.isError()) {
            qWarning("cannot import rows: %s", qPrintable(error.message));
            return nullptr;
        }
    }
    return store.value();
}

// Runs `action` from inside a running event loop, as a click arrives in the application's
// own loop (level 1), and keeps that loop turning until `done` holds. A nested loop the
// action starts then shows as level 2 to a GuiStallProbe. False when `done` did not come
// within `timeoutMs`.
inline bool runFromEventLoop(const std::function<void()> &action, const std::function<bool()> &done,
                             int timeoutMs = 10000)
{
    QTestEventLoop loop;
    QTimer::singleShot(0, &loop, action);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.exitLoop();
    });
    poll.start(5);
    loop.enterLoopMSecs(timeoutMs);
    return !loop.timeout();
}
