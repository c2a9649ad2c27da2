#pragma once

#include <QString>

// capdeskctl's bash completion (`capdeskctl completion bash`), written from the command
// table: commands and a group's members, each command's options and the common ones,
// files after a FILE or PEM option or argument, and the words of an option such as
// `--format json|sql`. The package installs it; a shell can also `source <(…)` it.
class CtlCompletion final
{
public:
    static QString bash();
};
