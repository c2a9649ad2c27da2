// LD_PRELOAD shim for the benchmarks: every fsync/fdatasync takes at least
// SLOW_FLUSH_MS (default 4) milliseconds longer, as on the virtual disks where a durable
// commit costs ~4 ms. It still makes the real call, so durability is unchanged.
// Built with the benchmarks; the runner times bench_flows on it too:
//   LD_PRELOAD=build/tests/bench/slow_flush.so build/tests/bench/bench_flows
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void pause_for_flush(void)
{
    const char *text = getenv("SLOW_FLUSH_MS");
    const long ms = text ? strtol(text, NULL, 10) : 4;
    if (ms <= 0 || ms > 1000)
        return;
    struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&wait, NULL);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fsync"); // POSIX's way past ISO C's cast rule
    pause_for_flush();
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fdatasync"); // POSIX's way past ISO C's cast rule
    pause_for_flush();
    return real(fd);
}
