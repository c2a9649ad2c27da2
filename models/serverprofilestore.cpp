#include "models/serverprofilestore.h"

#include "dispatch/runners/tlstrust.h"

#include <QSettings>

#include <algorithm>

namespace {

const QString kGroup = QStringLiteral("serverProfiles");
const QString kName = QStringLiteral("name");
const QString kUrl = QStringLiteral("url");
const QString kCaFile = QStringLiteral("caFile");
const QString kPollSeconds = QStringLiteral("pollSeconds");

// A settings file is edited by hand too: anything but a whole number in range means the
// server's own default.
int pollSecondsFrom(const QVariant &value)
{
    bool ok = false;
    const int seconds = value.toString().toInt(&ok);
    return ok && seconds >= 0 && seconds <= ServerProfile::maxPollSeconds ? seconds : 0;
}

// "http://h", "http://h/" and "http://h/x/" name the same server as "http://h/x".
QString withoutTrailingSlash(const QUrl &url)
{
    QString text = url.adjusted(QUrl::StripTrailingSlash | QUrl::NormalizePathSegments).toString();
    if (text.endsWith(u'/'))
        text.chop(1);
    return text;
}

} // namespace

QList<ServerProfile> ServerProfileStore::profiles()
{
    QSettings settings;
    // An array, not one group per name: a profile name may hold '/', which QSettings
    // would read as a nested group.
    const int size = settings.beginReadArray(kGroup);
    QList<ServerProfile> profiles;
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        ServerProfile profile{settings.value(kName).toString(), QUrl(settings.value(kUrl).toString()),
                              settings.value(kCaFile).toString(),
                              pollSecondsFrom(settings.value(kPollSeconds))};
        if (!profile.name.isEmpty())
            profiles.append(profile);
    }
    settings.endArray();
    std::sort(profiles.begin(), profiles.end(), [](const ServerProfile &a, const ServerProfile &b) {
        return a.name.localeAwareCompare(b.name) < 0;
    });
    return profiles;
}

std::optional<ServerProfile> ServerProfileStore::profile(const QString &name)
{
    for (const ServerProfile &profile : profiles()) {
        if (profile.name == name)
            return profile;
    }
    return std::nullopt;
}

std::optional<ServerProfile> ServerProfileStore::profileForUrl(const QUrl &url)
{
    for (const ServerProfile &profile : profiles()) {
        if (withoutTrailingSlash(profile.url) == withoutTrailingSlash(url))
            return profile;
    }
    return std::nullopt;
}

void ServerProfileStore::store(const QList<ServerProfile> &profiles)
{
    QSettings settings;
    settings.remove(kGroup);
    settings.beginWriteArray(kGroup, int(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(kName, profiles.at(i).name);
        settings.setValue(kUrl, profiles.at(i).url.toString());
        if (!profiles.at(i).caFile.isEmpty())
            settings.setValue(kCaFile, profiles.at(i).caFile);
        if (profiles.at(i).pollSeconds > 0)
            settings.setValue(kPollSeconds, profiles.at(i).pollSeconds);
    }
    settings.endArray();
}

QString ServerProfileStore::urlProblem(const QUrl &url)
{
    if (!url.isValid() || url.isEmpty())
        return tr("enter the server's address, e.g. http://127.0.0.1:8787");
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        return tr("the address must start with http:// or https://");
    if (url.host().isEmpty())
        return tr("the address names no host");
    if (url.hasQuery() || url.hasFragment())
        return tr("the address must not carry a query or fragment");
    if (!url.userInfo().isEmpty())
        return tr("put the owner key in the key field, not in the address");
    return {};
}

QString ServerProfileStore::problemOf(const ServerProfile &profile)
{
    if (profile.name.trimmed().isEmpty())
        return tr("give the profile a name");
    if (const QString problem = urlProblem(profile.url); !problem.isEmpty())
        return problem;
    if (profile.pollSeconds < 0 || profile.pollSeconds > ServerProfile::maxPollSeconds)
        return tr("check for changes every 1 to %1 seconds, or leave it to the server")
            .arg(ServerProfile::maxPollSeconds);
    return profile.caFile.isEmpty() ? QString() : TlsTrust::caFileProblem(profile.caFile);
}

bool ServerProfileStore::save(const ServerProfile &profile, const QString &ownerKey, QString *why)
{
    auto fail = [why](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (const QString problem = problemOf(profile); !problem.isEmpty())
        return fail(problem);
    // The key first: a profile saved without the key it was meant to have would connect
    // with a stale one.
    QString keychainWhy;
    if (!ownerKey.isEmpty() && !KeychainStore().set(keychainName(profile.name), ownerKey, &keychainWhy))
        return fail(keyNotStored(keychainWhy));
    put(profile);
    return true;
}

void ServerProfileStore::saveAsync(const ServerProfile &profile, const QString &ownerKey, QObject *context,
                                   std::function<void(const QString &why)> done)
{
    const QString problem = problemOf(profile);
    if (!problem.isEmpty() || ownerKey.isEmpty()) {
        if (problem.isEmpty())
            put(profile);
        QMetaObject::invokeMethod(
            context, [done = std::move(done), problem] { done(problem); }, Qt::QueuedConnection);
        return;
    }
    KeychainStore().setAsync(keychainName(profile.name), ownerKey, context,
                             [profile, done = std::move(done)](const KeychainStore::Outcome &stored) {
                                 if (!stored.ok)
                                     return done(keyNotStored(stored.error));
                                 put(profile);
                                 done({});
                             });
}

void ServerProfileStore::put(const ServerProfile &profile)
{
    QList<ServerProfile> all = profiles();
    const auto same =
        std::find_if(all.begin(), all.end(), [&](const ServerProfile &p) { return p.name == profile.name; });
    if (same != all.end())
        *same = profile;
    else
        all.append(profile);
    store(all);
}

QString ServerProfileStore::keyNotStored(const QString &keychainWhy)
{
    return tr("the owner key could not be stored: %1").arg(keychainWhy);
}

KeychainStore::Read ServerProfileStore::ownerKey(const QString &name)
{
    return KeychainStore().read(keychainName(name));
}

void ServerProfileStore::ownerKeyAsync(const QString &name, QObject *context,
                                       std::function<void(const KeychainStore::Read &)> done)
{
    KeychainStore().readAsync(keychainName(name), context, std::move(done));
}

bool ServerProfileStore::remove(const QString &name, QString *why)
{
    QString keychainWhy;
    const bool keyRemoved = KeychainStore().remove(keychainName(name), &keychainWhy);
    drop(name);
    if (!keyRemoved && why)
        *why = keyNotRemoved(keychainWhy);
    return keyRemoved;
}

void ServerProfileStore::removeAsync(const QString &name, QObject *context,
                                     std::function<void(const QString &why)> done)
{
    drop(name);
    KeychainStore().removeAsync(keychainName(name), context,
                                [done = std::move(done)](const KeychainStore::Outcome &removed) {
                                    done(removed.ok ? QString() : keyNotRemoved(removed.error));
                                });
}

void ServerProfileStore::drop(const QString &name)
{
    QList<ServerProfile> all = profiles();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const ServerProfile &p) { return p.name == name; }),
              all.end());
    store(all);
}

QString ServerProfileStore::keyNotRemoved(const QString &keychainWhy)
{
    return tr("the profile is gone, but its owner key could not be removed from the keychain: %1")
        .arg(keychainWhy);
}

QString ServerProfileStore::keychainName(const QString &name)
{
    return QStringLiteral("server-owner-key:") + name;
}
