#include "views/shell/unsavedchangesguard.h"

#include "models/directorydocument.h"
#include "views/common/prompter.h"

UnsavedChangesGuard::UnsavedChangesGuard(Prompter &prompter) : m_prompter(prompter) {}

bool UnsavedChangesGuard::mayDrop(DirectoryDocument *document, const std::function<void()> &retry) const
{
    if (document && document->isSaving()) {
        m_prompter.showInfo(tr("Still Saving"),
                            tr("Your edits are being saved to the server. Wait for the save "
                               "to finish, or cancel it, then try again."));
        return false;
    }
    if (!document || !document->isModified())
        return true;
    switch (m_prompter.askUnsaved(document->store().location(), int(document->modifiedKeys().size()))) {
    case Prompter::UnsavedChoice::Discard:
        return true;
    case Prompter::UnsavedChoice::Cancel:
        return false;
    case Prompter::UnsavedChoice::Save:
        break;
    }
    const StoreError error = document->save();
    if (error.isError()) {
        m_prompter.showError(tr("Save Failed"), tr("Nothing was saved: %1").arg(error.message));
        return false;
    }
    if (!document->isSaving())
        return true;
    // A failed save is shown by the window as any failed save is; only success goes on,
    // and either way this save's end is the last the retry listens to.
    if (retry) {
        auto onSaved = std::make_shared<QMetaObject::Connection>();
        auto onFailed = std::make_shared<QMetaObject::Connection>();
        auto stop = [onSaved, onFailed] {
            QObject::disconnect(*onSaved);
            QObject::disconnect(*onFailed);
        };
        *onSaved = QObject::connect(document, &DirectoryDocument::saved, document, [stop, retry] {
            stop();
            // Not from inside the document's own signal: the retry may drop the document.
            QMetaObject::invokeMethod(QCoreApplication::instance(), retry, Qt::QueuedConnection);
        });
        *onFailed = QObject::connect(document, &DirectoryDocument::saveFailed, document, stop);
    }
    return false;
}
