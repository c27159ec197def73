#ifndef CNCURSES_H
#define CNCURSES_H
#define NCURSES_WIDECHAR 1
#include <curses.h>
#endif
