#!/usr/bin/env python3
"""Renders Mermaid diagrams with mermaid.js itself, in a headless Chromium.

Usage: mermaid_render.py --mermaid-js PATH [--chromium PATH] FILE...

Each FILE is a Markdown page (every ```mermaid block in it) or a .mmd diagram. All of them
are rendered in one page: mermaid.parse, then mermaid.render to SVG. Prints one line per
diagram that mermaid.js refuses (file, block number, its error) and a summary line; exits 1
when any is refused, 2 when the browser gives no answer, 0 when every diagram rendered.
Standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><script src="mermaid.js"></script></head>
<body><pre id="out">PENDING</pre>
<script>
const diagrams = %s;
(async () => {
  const results = [];
  try {
    mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
    for (let i = 0; i < diagrams.length; i++) {
      const [name, text] = diagrams[i];
      try {
        await mermaid.parse(text);
        const {svg} = await mermaid.render("d" + i, text);
        results.push({name, ok: svg.includes("<svg"), size: svg.length});
      } catch (e) {
        results.push({name, ok: false, error: String((e && e.message) || e)});
      }
    }
  } catch (e) {
    results.push({name: "(mermaid.js)", ok: false, error: String((e && e.message) || e)});
  }
  document.getElementById("out").textContent = "<<MERMAID" + "-RESULTS>>" + JSON.stringify(results) + "<<MERMAID" + "-END>>";
})();
</script></body></html>
"""


def diagrams_of(path):
    text = open(path, encoding="utf-8").read()
    if not path.endswith(".md"):
        return [(path, text)]
    out, block, inside = [], [], False
    for line in text.split("\n"):
        if not inside and line.strip() == "```mermaid":
            inside, block = True, []
        elif inside and line.strip() == "```":
            inside = False
            out.append((f"{path} block {len(out) + 1}", "\n".join(block) + "\n"))
        elif inside:
            block.append(line)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mermaid-js", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    diagrams = [d for f in args.files for d in diagrams_of(f)]
    if not diagrams:
        print("no Mermaid diagram in the files given")
        return 1
    with tempfile.TemporaryDirectory() as work:
        shutil.copy(args.mermaid_js, os.path.join(work, "mermaid.js"))
        page = os.path.join(work, "page.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE % json.dumps(diagrams).replace("</", "<\\/"))
        command = [
            args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--allow-file-access-from-files", "--virtual-time-budget=600000",
            f"--user-data-dir={os.path.join(work, 'profile')}", "--dump-dom", "file://" + page,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    dom = done.stdout
    # The markers are split in the page's script, so only the answer holds them whole.
    start, end = dom.find("&lt;&lt;MERMAID-RESULTS&gt;&gt;"), dom.rfind("&lt;&lt;MERMAID-END&gt;&gt;")
    if start < 0 or end < start:
        print(f"the browser gave no answer (exit {done.returncode}): {done.stderr[-2000:]}")
        return 2
    raw = dom[start + len("&lt;&lt;MERMAID-RESULTS&gt;&gt;"):end]
    raw = raw.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    results = json.loads(raw)
    refused = [r for r in results if not r["ok"]]
    for r in refused:
        print(f"refused: {r['name']}: {r.get('error', 'no SVG')}")
    print(f"{len(results) - len(refused)} of {len(results)} diagrams rendered by mermaid.js"
          f" ({len(refused)} refused)")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
