#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNcurses.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal = 0;
static volatile sig_atomic_t resumed = 0;
static volatile sig_atomic_t curses_active = 0;

// The self-pipe: a stop signal also writes a byte here, so that a poll() that began just
// before the signal still wakes up.
static int wake_pipe[2] = { -1, -1 };

static void on_stop(int sig) {
    int saved = errno;
    stop_signal = sig;
    if (wake_pipe[1] >= 0) {
        ssize_t ignored = write(wake_pipe[1], "", 1);
        (void)ignored;
    }
    errno = saved;
}

// SIGCONT after a stop the program did not see coming (SIGSTOP; ncurses only handles the
// SIGTSTP of Ctrl-Z): the shell may have reset the terminal meanwhile.
static void on_continue(int sig) {
    (void)sig;
    int saved = errno;
    resumed = 1;
    if (wake_pipe[1] >= 0) {
        ssize_t ignored = write(wake_pipe[1], "", 1);
        (void)ignored;
    }
    errno = saved;
}

// What a crash handler needs to give the terminal back, prepared while nothing is wrong:
// endwin() is not async-signal-safe (a crash inside ncurses could deadlock in it), but
// write() and tcsetattr() are.
static struct termios saved_termios;
static int have_termios = 0;
static char restore_bytes[512];
static size_t restore_length = 0;

static void add_capability(const char *name) {
    char *value = tigetstr((char *)name);
    if (value == NULL || value == (char *)-1) return;
    size_t n = strlen(value);
    if (restore_length + n >= sizeof restore_bytes) return;
    memcpy(restore_bytes + restore_length, value, n);
    restore_length += n;
}

static void on_crash(int sig) {
    if (curses_active) {
        curses_active = 0;
        if (restore_length > 0) {
            ssize_t ignored = write(STDOUT_FILENO, restore_bytes, restore_length);
            (void)ignored;
        }
        if (have_termios) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void install(int sig, void (*handler)(int), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(sig, &sa, NULL);
}

void cn_install_signals(void) {
    stop_signal = 0;
    if (wake_pipe[0] < 0 && pipe(wake_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    install(SIGINT, on_stop, 0);
    install(SIGTERM, on_stop, 0);
    install(SIGHUP, on_stop, 0);
    install(SIGQUIT, on_stop, 0);
    install(SIGCONT, on_continue, SA_RESTART);
    int crash[] = { SIGSEGV, SIGABRT, SIGILL, SIGTRAP, SIGBUS };
    for (unsigned i = 0; i < sizeof crash / sizeof crash[0]; i++) {
        install(crash[i], on_crash, SA_RESETHAND | SA_NODEFER);
    }
    // A parent may hand down a mask that blocks them (a libdispatch worker thread that
    // spawned us does): the loop relies on them arriving.
    sigset_t wanted;
    sigemptyset(&wanted);
    int all[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT,
                  SIGSEGV, SIGABRT, SIGILL, SIGTRAP, SIGBUS };
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) sigaddset(&wanted, all[i]);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
}

int cn_take_stop_signal(void) {
    int sig = stop_signal;
    stop_signal = 0;
    return sig;
}

int cn_take_resumed(void) {
    int was = resumed;
    resumed = 0;
    return was;
}

void cn_resume(void) {
    // endwin() then the next doupdate() is ncurses' own way back from shell mode: it sets
    // the program's terminal modes again, re-enters the alternate screen, and repaints.
    endwin();
    clearok(curscr, TRUE);
}

void cn_set_curses_active(int active) { curses_active = active; }

int64_t cn_monotonic_ms(void) { return cn_monotonic_us() / 1000; }

int64_t cn_monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int cn_wait_stdin(int timeout_ms) {
    struct pollfd fds[2] = {
        { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 },
        { .fd = wake_pipe[0], .events = POLLIN, .revents = 0 },
    };
    int n = poll(fds, wake_pipe[0] >= 0 ? 2 : 1, timeout_ms);
    if (n < 0) return 0; // EINTR: a signal (SIGWINCH, SIGTERM...) arrived
    if (wake_pipe[0] >= 0 && (fds[1].revents & POLLIN)) {
        char buffer[64];
        while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {}
    }
    return (fds[0].revents & POLLIN) ? 1 : 0;
}

int cn_start(void) {
    // Refuse a terminal the UI cannot draw on before newterm(), which would accept it.
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK) return -1;
    const char *cup = tigetstr("cup");
    int addressable = cup != NULL && cup != (char *)-1 && tigetflag("hc") <= 0;
    del_curterm(cur_term);
    if (!addressable) return -2;
    have_termios = tcgetattr(STDIN_FILENO, &saved_termios) == 0;
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    restore_length = 0;
    add_capability("sgr0");   // attributes off
    add_capability("rmkx");   // keypad transmit mode off
    add_capability("cnorm");  // cursor visible
    add_capability("rmcup");  // leave the alternate screen
    return 0;
}

static void put_one(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    setcchar(&cell, text, attrs, pair, NULL);
    // The bottom-right cell reports ERR after drawing (the cursor cannot move on): harmless.
    mvadd_wch(y, x, &cell);
}

void cn_put_cells(int y, const wchar_t *chars, const int *cols, const unsigned char *widths,
                  int count, attr_t attrs, short pair) {
    static const wchar_t space[2] = { L' ', 0 };
    static const wchar_t unknown[2] = { L'?', 0 };
    for (int i = 0; i < count; i++) {
        const wchar_t *text = chars + (size_t)i * CN_CELL_STRIDE;
        int want = widths[i] > 1 ? 2 : 1;
        int have = wcwidth(text[0]);
        if (have == want) {
            put_one(y, cols[i], text, attrs, pair);
        } else if (have == 1) {
            put_one(y, cols[i], text, attrs, pair);
            put_one(y, cols[i] + 1, space, attrs, pair);
        } else {
            put_one(y, cols[i], unknown, attrs, pair);
            if (want == 2) put_one(y, cols[i] + 1, space, attrs, pair);
        }
    }
}
