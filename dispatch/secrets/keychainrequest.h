#pragma once

#include <QString>

// One QtKeychain operation on an entry of service "capdesk", as KeychainThread runs it.
struct KeychainRequest
{
    enum class Kind { Read, Write, Delete };
    Kind kind = Kind::Read;
    QString name;
    QString value; // Write only
};

// What one KeychainRequest came to. `error` is QtKeychain's own words or why no job could
// run; it never holds a value.
struct KeychainReply
{
    enum class Status { Done, NotFound, Failed };
    Status status = Status::Failed;
    QString value; // Read only
    QString error;
};
