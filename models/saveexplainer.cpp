#include "saveexplainer.h"

#include "directorydocument.h"
#include "hygienegate.h"

#include <QCoreApplication>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SaveExplainer", text);
}

} // namespace

QList<SaveRefusal> SaveExplainer::explain(const DirectoryDocument &document, const DirectoryIndex &index)
{
    QList<SaveRefusal> refusals;
    for (const QString &key : document.modifiedKeys()) {
        const std::optional<Row> after = document.row(key);
        if (!after)
            continue; // a delete passes no gate
        const StoreResult<Row> before = document.store().row(key);
        const bool existing = before.ok();
        const StoreError error = existing ? HygieneGate::checkPatch(before.value(), *after, index)
                                          : HygieneGate::checkCreate(*after, index);
        if (error.isError())
            refusals.append({key, existing, HygieneGate::refusalFindings(*after, index)});
    }
    return refusals;
}

QString SaveExplainer::describe(const QList<SaveRefusal> &refusals)
{
    QStringList paragraphs;
    for (const SaveRefusal &refusal : refusals) {
        QString text = refusal.existing
                           ? tr("%1 was compliant before this edit; saving it would break:").arg(refusal.key)
                           : tr("%1 is new and must be compliant; it breaks:").arg(refusal.key);
        for (const LintFinding &finding : refusal.findings)
            text += QStringLiteral("\n  • %1 %2 (%3): %4")
                        .arg(finding.code, finding.name, finding.field, finding.message);
        paragraphs.append(text);
    }
    return paragraphs.join(QStringLiteral("\n\n"));
}
