#include "dispatch/store/preparedrun.h"

PreparedRun::~PreparedRun()
{
    if (m_query)
        m_query->finish();
}
