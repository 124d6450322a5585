#!/usr/bin/env bash
# The screens, the summary and the tables README.md and docs/live.md show are
# what the code prints now: each generated block is made again and compared
# (`make docs` rewrites them). Also every block's lines fit its width.
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/tools/docs.py --check "${FS_OUT:-build}"
