#!/bin/sh
echo "fail.sh: simulated lowering failure" >&2
exit 3
