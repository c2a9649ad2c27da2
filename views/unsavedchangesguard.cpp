#include "unsavedchangesguard.h"

#include "directorydocument.h"
#include "prompter.h"

UnsavedChangesGuard::UnsavedChangesGuard(Prompter &prompter) : m_prompter(prompter) {}

bool UnsavedChangesGuard::mayDrop(DirectoryDocument *document) const
{
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
    return true;
}
