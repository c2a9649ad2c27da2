#pragma once

class QThreadPool;

// The threads that wait on a server for the GUI. Apart from QThreadPool::globalInstance()
// because lint-all and content search keep the global pool's threads busy with CPU work,
// while a job here mostly waits on the network. Kept for the whole process, so no owner
// ever has to wait for a request to end before it can go.
namespace NetworkPool {

QThreadPool &instance();

} // namespace NetworkPool
