#pragma once

#include <QJsonArray>
#include <QString>

#include <optional>
#include <utility>

// Why a store operation did not happen. The kinds map one-to-one onto the CLI's exit
// codes and the REST status codes, so every front end reports the same failure the same way.
struct StoreError
{
    enum class Kind {
        None,
        NotFound, // no such row
        AlreadyExists, // create of a key that is taken
        Conflict, // the row changed since the writer read it
        Invalid, // the row or patch breaks a rule; nothing was written
        NotDirectory, // the file is not a capability directory
        TooNew, // written by a newer Capdesk
        Io, // SQLite or the file system failed
        Unreachable, // a remote directory's server gave no answer (refused, timed out, DNS, TLS)
        Unauthorized, // a remote directory's server refused the owner key (401)
        Cancelled, // the caller stopped a write before its next request was sent
    };

    Kind kind = Kind::None;
    QString message;
    // What a front end shows beside the message: a hygiene refusal's findings, as JSON.
    QJsonArray details = {};

    bool isError() const { return kind != Kind::None; }
    static StoreError none() { return {}; }
    static StoreError make(Kind kind, QString message, QJsonArray details = {})
    {
        return {kind, std::move(message), std::move(details)};
    }
};

// A value or the reason there is none.
template<typename T>
class StoreResult
{
public:
    StoreResult(T value) : m_value(std::move(value)) {}
    StoreResult(StoreError error) : m_error(std::move(error)) {}

    bool ok() const { return m_value.has_value(); }
    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const StoreError &error() const { return m_error; }

private:
    std::optional<T> m_value;
    StoreError m_error;
};
