#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNcurses.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Files a command is writing and has not yet put in place, and directories it created:
// what SIGINT, SIGTERM and SIGHUP must take back before the process dies. The table is
// fixed and filled before a slot is marked used, so the handler reads only whole entries
// and calls only unlink() and rmdir(), which are async-signal-safe.
#define CN_STAGED_SLOTS 64
#define CN_STAGED_PATH 4096

static char staged_paths[CN_STAGED_SLOTS][CN_STAGED_PATH];
static volatile sig_atomic_t staged_kind[CN_STAGED_SLOTS]; // 0 free, 1 file, 2 directory

int cn_staged_add(const char *path, int directory) {
    size_t n = strlen(path);
    if (n >= CN_STAGED_PATH) return -1;
    for (int i = 0; i < CN_STAGED_SLOTS; i++) {
        if (staged_kind[i] != 0) continue;
        memcpy(staged_paths[i], path, n + 1);
        staged_kind[i] = directory ? 2 : 1;
        return i;
    }
    return -1;
}

void cn_staged_remove(int slot) {
    if (slot >= 0 && slot < CN_STAGED_SLOTS) staged_kind[slot] = 0;
}

void cn_staged_cleanup(void) {
    // Files first, then directories, newest first: a directory created for the files is
    // empty once they are gone.
    for (int i = CN_STAGED_SLOTS - 1; i >= 0; i--) {
        if (staged_kind[i] == 1) unlink(staged_paths[i]);
    }
    for (int i = CN_STAGED_SLOTS - 1; i >= 0; i--) {
        if (staged_kind[i] == 2) rmdir(staged_paths[i]);
    }
}

static void on_cleanup_signal(int sig) {
    cn_staged_cleanup();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

void cn_install_cleanup_signals(void) {
    int stops[] = { SIGINT, SIGTERM, SIGHUP };
    sigset_t wanted;
    sigemptyset(&wanted);
    for (unsigned i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_cleanup_signal;
        sigemptyset(&sa.sa_mask);
        for (unsigned j = 0; j < sizeof stops / sizeof stops[0]; j++) sigaddset(&sa.sa_mask, stops[j]);
        sigaction(stops[i], &sa, NULL);
        sigaddset(&wanted, stops[i]);
    }
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
}
