#pragma once

#include <QByteArray>
#include <QString>

// Capdesk's version, set in one place: project(VERSION) in the top CMakeLists.txt. The
// GUI's --version and About box, capdeskctl --version, the remote client's User-Agent,
// and a server whose owner chose to announce it all read it here.
class ProductVersion final
{
public:
    static QString number();
    // "Capdesk/VERSION": the User-Agent of the remote client, and the Server header of a
    // server started with --announce-version.
    static QByteArray product();
};
