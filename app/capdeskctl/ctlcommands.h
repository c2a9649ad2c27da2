#pragma once

#include "ctlarguments.h"

#include <memory>

class DirectoryStore;

// The local commands of SPEC §11, each a thin call into the engine.
class CtlCommands final
{
public:
    explicit CtlCommands(CtlArguments arguments);
    int run();

private:
    int init();
    int importFile();
    int exportRows();
    int get();
    int put();
    int patch();
    int remove();

    bool openStore();
    QString dbPath() const;
    bool expectPositional(int count, const QString &usage);

    CtlArguments m_args;
    std::shared_ptr<DirectoryStore> m_store;
    int m_exit = 0;
};
