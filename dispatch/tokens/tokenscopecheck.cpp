#include "dispatch/tokens/tokenscopecheck.h"

#include "dispatch/store/directorystore.h"
#include "dispatch/tokens/capabilitytoken.h"

#include <QSet>

#include <algorithm>

namespace {

QStringList missingFrom(const QStringList &names, const QStringList &known)
{
    QStringList missing;
    for (const QString &name : names) {
        if (!std::binary_search(known.begin(), known.end(), name))
            missing.append(name);
    }
    return missing;
}

QString sentence(const QStringList &names, const QString &one, const QString &many)
{
    if (names.isEmpty())
        return {};
    return QStringLiteral("no row has the %1 %2")
        .arg(names.size() == 1 ? one : many, names.join(QStringLiteral(", ")));
}

} // namespace

StoreResult<TokenScopeCheck::Names> TokenScopeCheck::known(const DirectoryStore &store)
{
    QSet<QString> keys;
    QSet<QString> categories;
    const StoreError error = store.scanSummaries([&](const RowSummary &row) {
        keys.insert(row.key);
        if (!row.category.isEmpty())
            categories.insert(row.category);
    });
    if (error.isError())
        return error;
    Names names{keys.values(), categories.values()};
    std::sort(names.keys.begin(), names.keys.end());
    std::sort(names.categories.begin(), names.categories.end());
    return names;
}

TokenScopeCheck::Names TokenScopeCheck::unknown(const CapabilityToken &token, const Names &known)
{
    return {missingFrom(token.allowedKeys, known.keys),
            missingFrom(token.allowedCategories, known.categories)};
}

QString TokenScopeCheck::describe(const Names &unknown)
{
    QStringList parts;
    for (const QString &part :
         {sentence(unknown.keys, QStringLiteral("key"), QStringLiteral("keys")),
          sentence(unknown.categories, QStringLiteral("category"), QStringLiteral("categories"))}) {
        if (!part.isEmpty())
            parts.append(part);
    }
    return parts.join(QStringLiteral("; "));
}
