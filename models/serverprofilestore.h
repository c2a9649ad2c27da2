#pragma once

#include "dispatch/secrets/keychainstore.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

// A named server the app can connect to (SPEC §10). The owner key is not part of it: it
// lives in the keychain only, under keychainName(name).
struct ServerProfile
{
    QString name;
    QUrl url;
    // For an https server: a PEM file of CA certificates trusted beside the system roots
    // (a private CA, or the server's own self-signed certificate); empty: the roots only.
    QString caFile = {};
    // How often the open directory asks the server what changed elsewhere, in seconds; 0 leaves
    // it to the server's kind: 5 s for `capdeskctl serve`, whose change feed answers in a few
    // bytes, 60 s for a plain SPEC §10 server, which can only send its whole listing.
    int pollSeconds = 0;

    static constexpr int maxPollSeconds = 3600;

    bool operator==(const ServerProfile &other) const
    {
        return name == other.name && url == other.url && caFile == other.caFile
               && pollSeconds == other.pollSeconds;
    }
};

// The saved server profiles: names, URLs and CA files in the application's QSettings
// (group "serverProfiles"), each owner key in the OS keychain. Nothing secret ever reaches
// the settings file, so it can be shared or backed up as it is.
class ServerProfileStore final
{
    Q_DECLARE_TR_FUNCTIONS(ServerProfileStore)

public:
    // Sorted by name.
    static QList<ServerProfile> profiles();
    static std::optional<ServerProfile> profile(const QString &name);
    // The profile whose URL is `url` (ignoring a trailing slash), for `capdesk --server URL`.
    static std::optional<ServerProfile> profileForUrl(const QUrl &url);

    // Adds or updates the profile; a non-empty `ownerKey` replaces the keychain entry, an
    // empty one leaves it as it is. False (and why) when the name, URL or CA file is
    // unusable or the keychain refuses; the settings are then left unchanged.
    static bool save(const ServerProfile &profile, const QString &ownerKey, QString *why = nullptr);
    // The same without blocking: the key goes to the keychain asynchronously, and only then
    // the profile to the settings. `done` runs later in `context`'s event loop with why the
    // profile was not saved, empty when it was.
    static void saveAsync(const ServerProfile &profile, const QString &ownerKey, QObject *context,
                          std::function<void(const QString &why)> done);
    static KeychainStore::Read ownerKey(const QString &name);
    // The same without blocking: `done` runs later in `context`'s event loop.
    static void ownerKeyAsync(const QString &name, QObject *context,
                              std::function<void(const KeychainStore::Read &)> done);
    // Removes the profile and its keychain entry.
    static bool remove(const QString &name, QString *why = nullptr);
    // The same without blocking: the profile is gone at once, its key once the keychain
    // answers; `done` then runs in `context`'s event loop with why the key stayed (empty: gone).
    static void removeAsync(const QString &name, QObject *context,
                            std::function<void(const QString &why)> done);

    static QString keychainName(const QString &name);
    // Why `url` cannot name a server (empty when it can): http(s), a host, no query.
    static QString urlProblem(const QUrl &url);
    // Why `profile` cannot be saved (empty when it can): no name, an unusable URL, a CA file
    // that cannot be read or holds no PEM certificate, or a poll interval out of range.
    static QString problemOf(const ServerProfile &profile);

private:
    static void store(const QList<ServerProfile> &profiles);
    // Adds `profile` to the settings, or replaces the one of the same name.
    static void put(const ServerProfile &profile);
    static void drop(const QString &name);
    static QString keyNotStored(const QString &keychainWhy);
    static QString keyNotRemoved(const QString &keychainWhy);
};
