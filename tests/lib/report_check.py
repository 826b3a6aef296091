#!/usr/bin/env python3
# Loads an HTML page in headless Chromium over the DevTools pipe (standard library only) and
# prints, as JSON: console messages and exceptions, log entries (CSP refusals among them),
# network requests, what the page holds (charts, tables, sections), and a full-page PNG.
# Usage: report_check.py PAGE.html SHOT.png USER_DATA_DIR   (REPORT_WIDTH: the window's
# width in CSS px, 1280 by default)
import base64, json, os, subprocess, sys, time

page, shot, udd = sys.argv[1], sys.argv[2], sys.argv[3]
chromium = os.environ.get("CHROMIUM", "chromium")
TIMEOUT = int(os.environ.get("REPORT_CHECK_TIMEOUT", "60"))
WIDTH = int(os.environ.get("REPORT_WIDTH", "1280"))

to_r, to_w = os.pipe()      # we write commands, chromium reads fd 3
from_r, from_w = os.pipe()  # chromium writes fd 4, we read


def child_fds():
    # Through spare numbers first: the pipes may already be 3 or 4, and os.pipe() fds do
    # not survive exec.
    a, b = os.dup(to_r), os.dup(from_w)
    os.dup2(a, 3)
    os.dup2(b, 4)
    os.set_inheritable(3, True)
    os.set_inheritable(4, True)


proc = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
     "--disable-background-networking", "--disable-component-update", "--disable-sync",
     "--user-data-dir=" + udd, "--remote-debugging-pipe", "--hide-scrollbars",
     "--window-size=%d,900" % WIDTH] + os.environ.get("CHROMIUM_FLAGS", "").split() + ["about:blank"],
    preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL, stderr=open(os.path.join(udd, "..", "chromium.log"), "w") if os.environ.get("CHROMIUM_LOG") else subprocess.DEVNULL)
os.close(to_r)
os.close(from_w)
rx = os.fdopen(from_r, "rb", buffering=0)
next_id = 0
pending = b""
events = []
deadline = time.time() + TIMEOUT


def read_msg():
    global pending
    while b"\0" not in pending:
        if time.time() > deadline:
            raise TimeoutError("chromium did not answer in %d s" % TIMEOUT)
        chunk = rx.read(65536)
        if not chunk:
            raise EOFError("chromium closed the pipe")
        pending += chunk
    msg, pending = pending.split(b"\0", 1)
    return json.loads(msg)


def call(method, params=None, session=None):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session:
        msg["sessionId"] = session
    os.write(to_w, json.dumps(msg).encode() + b"\0")
    while True:
        m = read_msg()
        if m.get("id") == next_id:
            if "error" in m:
                raise RuntimeError("%s: %s" % (method, m["error"]))
            return m.get("result", {})
        events.append(m)


def wait_event(name):
    for i, m in enumerate(events):
        if m.get("method") == name:
            return events.pop(i)
    while True:
        m = read_msg()
        if m.get("method") == name:
            return m
        events.append(m)


out = {}
try:
    targets = call("Target.getTargets")["targetInfos"]
    page_target = [t for t in targets if t["type"] == "page"][0]["targetId"]
    sid = call("Target.attachToTarget", {"targetId": page_target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        call(domain + ".enable", session=sid)
    call("Emulation.setDeviceMetricsOverride",
         {"width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=sid)
    call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=sid)
    wait_event("Page.loadEventFired")
    probe = """JSON.stringify({
      figures: document.querySelectorAll('figure').length,
      svgs: document.querySelectorAll('figure svg.chart').length,
      svgs_drawn: [...document.querySelectorAll('figure svg.chart')].filter(
        s => s.getBoundingClientRect().width > 600 && s.getBoundingClientRect().height > 200 &&
             s.querySelectorAll('path, polygon').length > 5).length,
      chart_titles: [...document.querySelectorAll('figure svg.chart')].map(
        s => [...s.querySelectorAll('text')].map(t => t.textContent).join(' | ')),
      tables: document.querySelectorAll('table').length,
      compare_rows: document.querySelectorAll('#compare table:not(.rwgrid) tbody tr').length,
      job_rows: document.querySelectorAll('#jobs table tbody tr').length,
      meter_rows: document.querySelectorAll('#meters table tbody tr').length,
      device_cards: document.querySelectorAll('#devices .card').length,
      sections: [...document.querySelectorAll('section')].map(s => s.id),
      methods_tables: document.querySelectorAll('#methods table').length,
      methods_text: document.querySelector('#methods') ?
        document.querySelector('#methods').textContent.length : 0,
      scripts: document.querySelectorAll('script').length,
      badges: [...document.querySelectorAll('.badge')].map(b => b.textContent),
      body_text: document.body.innerText,
      height: document.documentElement.scrollHeight,
      // wider than the window: the page scrolls sideways as a whole (a table in its own
      // scroll box does not count)
      scroll_width: document.documentElement.scrollWidth,
      charts_wider: [...document.querySelectorAll('figure svg.chart')].filter(
        s => s.getBoundingClientRect().right > window.innerWidth + 1).length,
      // text of the charts drawn smaller than 7 CSS px: unreadable at this width
      chart_font_px_min: Math.min(...[...document.querySelectorAll('figure svg.chart')].map(s => {
        const r = s.getBoundingClientRect(), vb = s.viewBox.baseVal;
        return vb && vb.width ? 9 * r.width / vb.width : 99; }), 99)
    })"""
    r = call("Runtime.evaluate", {"expression": probe, "returnByValue": True}, session=sid)
    out.update(json.loads(r["result"]["value"]))
    call("Emulation.setDeviceMetricsOverride",
         {"width": WIDTH, "height": min(out["height"], 16000), "deviceScaleFactor": 1,
          "mobile": False}, session=sid)
    png = call("Page.captureScreenshot", {"format": "png"}, session=sid)["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png))
    # PARTS=N also writes the page in N slices (SHOT.1.png...), for reading it by eye.
    parts = int(os.environ.get("PARTS", "0"))
    for k in range(parts):
        h = out["height"] / parts
        clip = {"x": 0, "y": k * h, "width": WIDTH, "height": h, "scale": 1}
        data = call("Page.captureScreenshot", {"format": "png", "clip": clip}, session=sid)["data"]
        with open("%s.%d.png" % (shot[:-4], k + 1), "wb") as f:
            f.write(base64.b64decode(data))
    # Whatever arrived meanwhile: console calls, exceptions, log entries, requests.
    call("Runtime.evaluate", {"expression": "1"}, session=sid)
    out["console"] = [e["params"]["type"] + ": " + " ".join(
        str(a.get("value", a.get("description", ""))) for a in e["params"]["args"])
        for e in events if e.get("method") == "Runtime.consoleAPICalled"]
    out["exceptions"] = [e["params"]["exceptionDetails"].get("text", "")
                         for e in events if e.get("method") == "Runtime.exceptionThrown"]
    out["log"] = [e["params"]["entry"]["level"] + ": " + e["params"]["entry"]["text"]
                  for e in events if e.get("method") == "Log.entryAdded"]
    out["requests"] = [e["params"]["request"]["url"][:120]
                       for e in events if e.get("method") == "Network.requestWillBeSent"]
finally:
    try:
        call("Browser.close")
    except Exception:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
print(json.dumps(out))
