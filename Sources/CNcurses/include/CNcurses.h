#ifndef CNCURSES_H
#define CNCURSES_H
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <wchar.h>

// Swift 6 refuses ncurses' C globals and cannot import its function-like macros:
// these accessors stand in for them.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline int cn_key_resize(void) { return KEY_RESIZE; }

/// The codeset of the current locale ("UTF-8", "ANSI_X3.4-1968", ...), after setlocale.
static inline const char *cn_codeset(void) { return nl_langinfo(CODESET); }

/// newterm() on stdout/stdin and set_term(); 0 on success, -1 when TERM is unset or unknown
/// (unlike initscr(), which would print and exit), -2 when the terminal cannot move the
/// cursor (TERM=dumb, a hardcopy terminal).
int cn_start(void);

/// Characters per cell in `cn_put_cells`: one spacing character, up to four combining marks,
/// zero-padded.
#define CN_CELL_STRIDE 5

/// Writes `count` cells of one row in one style. Cell i holds CN_CELL_STRIDE wide characters
/// from `chars + i * CN_CELL_STRIDE`, goes to column `cols[i]` and is `widths[i]` columns wide
/// (1 or 2) in the UI's grid. When the C library measures the character differently, it is
/// written so that the grid's columns still hold: a narrow character in a wide cell gets a
/// space after it; anything wider than its cell becomes '?'.
void cn_put_cells(int y, const wchar_t *chars, const int *cols, const unsigned char *widths,
                  int count, attr_t attrs, short pair);

/// Signal handling. `cn_install_signals` (call before initscr) catches SIGINT, SIGTERM,
/// SIGHUP and SIGQUIT into a flag, SIGCONT into another (`cn_take_resumed`) (without SA_RESTART, so a blocked poll() returns EINTR), and the crash
/// signals (SIGSEGV, SIGABRT, SIGILL, SIGTRAP, SIGBUS) to endwin() before dying with the
/// default action.
void cn_install_signals(void);
/// The last stop signal received (0 when none), cleared by reading it.
int cn_take_stop_signal(void);
/// Whether a SIGCONT arrived since the last call, cleared by reading it.
int cn_take_resumed(void);
/// Re-enters curses mode after a stop: the next refresh sets the terminal's modes again and
/// repaints the whole screen.
void cn_resume(void);
/// Whether the crash handler should call endwin(): set while curses is active.
void cn_set_curses_active(int active);

/// Monotonic milliseconds (CLOCK_MONOTONIC).
int64_t cn_monotonic_ms(void);
/// Monotonic microseconds (CLOCK_MONOTONIC).
int64_t cn_monotonic_us(void);
/// Blocks until stdin is readable, a signal arrives, or `timeout_ms` passes (-1: forever).
/// Returns 1 when readable, 0 on timeout or interruption.
int cn_wait_stdin(int timeout_ms);
/// Staged outputs. `cn_staged_add` registers a file being written (or, with `directory`
/// nonzero, a directory the command created) and returns its slot (-1 when the table is
/// full or the path too long); `cn_staged_remove` forgets it once it is in place or gone.
/// `cn_install_cleanup_signals` makes SIGINT, SIGTERM and SIGHUP remove every registered
/// file, then every registered directory that is empty, before dying of the signal.
int cn_staged_add(const char *path, int directory);
void cn_staged_remove(int slot);
void cn_install_cleanup_signals(void);
/// What the cleanup handler does, for another signal handler to call (async-signal-safe).
void cn_staged_cleanup(void);
#endif
