#pragma once

#include "directorystore.h"

#include <QObject>

#include <memory>

class DirectoryDocument;

// The directory the window currently shows. Opening another one builds and loads a new
// DirectoryDocument first and only then swaps it in: a file that fails to load leaves the
// current directory (and its unsaved edits) untouched. The old document is deleted after
// documentChanged() has let every view rewire to the new one.
class DirectorySession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectorySession)

public:
    explicit DirectorySession(QObject *parent = nullptr);
    ~DirectorySession() override;

    DirectoryDocument *document() const { return m_document; }
    // The open directory's path or URL; empty when none is open.
    QString location() const;
    // "Capdesk — file.db[*]", the [*] being where QWidget shows its modified mark.
    QString windowTitle() const;

    StoreError open(std::shared_ptr<DirectoryStore> store);
    // A fresh document over the same store, after something else wrote to it (an import).
    StoreError reload();

signals:
    void documentChanged(DirectoryDocument *document);

private:
    DirectoryDocument *m_document = nullptr;
};
