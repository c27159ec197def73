import CNcurses
