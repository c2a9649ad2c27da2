#pragma once

#include <QString>

// capdeskctl(1), written in roff from the command table (`capdeskctl help --man`), so the
// installed manual says what this very build parses. The package's build runs it.
class CtlManPage final
{
public:
    static QString render();
};
