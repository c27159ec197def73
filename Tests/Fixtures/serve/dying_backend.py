"""other_backend.py until the second file: it exits (as a crashed backend does) at the first
request of world f2 (its X-Session header, path or body names an f2- user), for iapsim
serve's test of a backend that dies mid-run. Python's standard library only."""
import os
import runpy
from http.server import BaseHTTPRequestHandler

parse = BaseHTTPRequestHandler.parse_request


def dying_parse(self):
    ok = parse(self)
    if ok and ("-f2-" in self.path or any("-f2-" in value for value in self.headers.values())):
        os._exit(0)
    return ok


BaseHTTPRequestHandler.parse_request = dying_parse
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "other_backend.py"), run_name="__main__")
