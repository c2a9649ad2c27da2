#pragma once

#include <QThreadPool>

#include <utility>

// Frees `value` on a pool thread. A whole directory's rows, index or findings are hundreds
// of thousands of small blocks: tens of milliseconds that the GUI thread need not spend.
// `value` must be the last owner of what it shares.
template<typename T>
void releaseOnPool(T value)
{
    QThreadPool::globalInstance()->start([held = std::move(value)] { Q_UNUSED(held); });
}
