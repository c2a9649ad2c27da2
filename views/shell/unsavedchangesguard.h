#pragma once

#include <QCoreApplication>

#include <functional>

class DirectoryDocument;
class Prompter;

// Asked before anything would drop a document (closing the window, opening another
// file, importing): with unsaved edits the user chooses Save, Discard or Cancel, and a
// save that fails keeps the document and cancels — nothing is ever lost silently.
class UnsavedChangesGuard final
{
    Q_DECLARE_TR_FUNCTIONS(UnsavedChangesGuard)

public:
    explicit UnsavedChangesGuard(Prompter &prompter);

    // True when the document may be dropped now (nothing unsaved, saved, or discarded).
    // A save to a server takes its round trips: the answer is then false, and `retry`
    // (the caller's action again) runs once the save has succeeded.
    bool mayDrop(DirectoryDocument *document, const std::function<void()> &retry = {}) const;

private:
    Prompter &m_prompter;
};
