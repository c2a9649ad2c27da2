#pragma once

#include "dispatch/directory/localdirectory.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/shell/mainwindow.h"

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include <memory>

// The window-level tests' common start: a MainWindow over a fresh local directory of
// `rows` in a temporary folder, with a FakePrompter, shown and active, settings cleared.
// Tests leave edits behind on purpose, so going away discards them without asking.
struct SampleWindow
{
    std::unique_ptr<QTemporaryDir> dir = std::make_unique<QTemporaryDir>();
    QString path = dir->filePath(QStringLiteral("directory.db"));
    FakePrompter *prompter = nullptr;
    std::unique_ptr<DirectorySession> session;
    std::unique_ptr<MainWindow> window;

    // False (the calling test failed with the reason) when the directory cannot be opened.
    bool open(const QList<Row> &rows = sampleRows())
    {
        QSettings().clear();
        auto store = openStoreWithRows(path, rows);
        if (!store)
            return false;
        session = std::make_unique<DirectorySession>();
        if (const StoreError error = session->open(LocalDirectory::over(store)); error.isError()) {
            qWarning("cannot open the directory: %s", qPrintable(error.message));
            return false;
        }
        auto fake = std::make_unique<FakePrompter>();
        prompter = fake.get();
        window = std::make_unique<MainWindow>(*session, std::move(fake));
        window->show();
        QApplication::setActiveWindow(window.get());
        return QTest::qWaitForWindowActive(window.get());
    }

    ~SampleWindow()
    {
        if (prompter)
            prompter->unsavedAnswer = Prompter::UnsavedChoice::Discard;
        window.reset();
        session.reset();
    }
};
