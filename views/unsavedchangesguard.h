#pragma once

#include <QCoreApplication>

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
    bool mayDrop(DirectoryDocument *document) const;

private:
    Prompter &m_prompter;
};
