#include "dispatch/lint/saveexplainer.h"

#include "dispatch/lint/hygienegate.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SaveExplainer", text);
}

DirectoryIndex withDrafts(const QList<SaveDraft> &drafts, DirectoryIndex index)
{
    for (const SaveDraft &draft : drafts) {
        if (draft.after)
            index.update(*draft.after);
        else
            index.remove(draft.key);
    }
    return index;
}

} // namespace

QList<SaveRefusal> SaveExplainer::explain(const QList<SaveDraft> &drafts, const DirectoryIndex &lastLinted)
{
    if (drafts.isEmpty())
        return {};
    const DirectoryIndex index = withDrafts(drafts, lastLinted);
    QList<SaveRefusal> refusals;
    for (const SaveDraft &draft : drafts) {
        if (!draft.after)
            continue; // a delete passes no gate
        const StoreError error = draft.before ? HygieneGate::checkPatch(*draft.before, *draft.after, index)
                                              : HygieneGate::checkCreate(*draft.after, index);
        if (error.isError())
            refusals.append(
                {draft.key, draft.before.has_value(), HygieneGate::refusalFindings(*draft.after, index)});
    }
    return refusals;
}

QList<SaveRefusal> SaveExplainer::fromStoreError(const StoreError &error,
                                                 const std::function<bool(const QString &key)> &isStored)
{
    if (error.kind != StoreError::Kind::Invalid)
        return {};
    QList<LintFinding> findings;
    for (const QJsonValue value : error.details)
        findings.append(LintFinding::fromJson(value.toObject()));
    // A server may name warnings beside the errors; only errors refuse a save.
    if (std::any_of(findings.cbegin(), findings.cend(), [](const LintFinding &f) { return f.isError(); }))
        findings.removeIf([](const LintFinding &finding) { return !finding.isError(); });
    QList<SaveRefusal> refusals;
    for (const LintFinding &finding : std::as_const(findings)) {
        if (finding.key.isEmpty() || finding.code.isEmpty())
            continue;
        auto same = std::find_if(refusals.begin(), refusals.end(),
                                 [&](const SaveRefusal &refusal) { return refusal.key == finding.key; });
        if (same == refusals.end())
            same = refusals.insert(refusals.end(), {finding.key, isStored(finding.key), {}});
        same->findings.append(finding);
    }
    return refusals;
}

QString SaveExplainer::describe(const QList<SaveRefusal> &refusals)
{
    QStringList paragraphs;
    for (const SaveRefusal &refusal : refusals) {
        QString text = refusal.existing
                           ? tr("%1 was compliant before; these edits would add:").arg(refusal.key)
                           : tr("%1 is new, and a new row must have no errors; it breaks:").arg(refusal.key);
        for (const LintFinding &finding : refusal.findings)
            text += QStringLiteral("\n  • %1 %2 (%3): %4")
                        .arg(finding.code, finding.name, finding.field, finding.message);
        paragraphs.append(text);
    }
    return paragraphs.join(QStringLiteral("\n\n"));
}
