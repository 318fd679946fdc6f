#!/bin/bash
# timeout: 60
# Harness self-test (tests/host/h05-harness-resume.sh): a file before the fault.
source "$BFQNG_TESTS/lib.sh"
tap_ok "the file before the fault runs (boot ${BFQNG_BOOT:-?})"
