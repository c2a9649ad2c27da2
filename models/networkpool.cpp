#include "models/networkpool.h"

#include <QThreadPool>

namespace NetworkPool {

QThreadPool &instance()
{
    // Never destroyed: a request still waiting at exit must not be waited for.
    static QThreadPool *pool = [] {
        auto *created = new QThreadPool;
        created->setMaxThreadCount(16);
        return created;
    }();
    return *pool;
}

} // namespace NetworkPool
