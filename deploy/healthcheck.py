"""Container health probe: exit 0 when the web process answers /healthz (200 or 503).

503 still means "serving": it reports a missing dependency, which /healthz names in its body.
The Host header is the first ALLOWED_HOSTS entry so Django does not reject the probe.
"""

import os
import sys
import urllib.error
import urllib.request

url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/healthz"
host = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0].strip()
request = urllib.request.Request(url, headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=4) as response:
        status = response.status
except urllib.error.HTTPError as error:
    status = error.code
except OSError as error:
    print(f"unreachable: {error}")
    sys.exit(1)
print(status)
sys.exit(0 if status in (200, 503) else 1)
