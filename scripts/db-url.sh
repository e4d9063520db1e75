#!/usr/bin/env bash
# db-url.sh ADMIN_URL NAME: prints ADMIN_URL with its database replaced by NAME.
python3 - "$1" "$2" <<'PY'
import sys, urllib.parse as u
p = u.urlsplit(sys.argv[1])
print(u.urlunsplit((p.scheme, p.netloc, "/" + sys.argv[2], p.query, p.fragment)))
PY
