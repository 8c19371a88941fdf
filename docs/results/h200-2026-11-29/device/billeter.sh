#!/usr/bin/env bash
# `winnow reproduce billeter` on the H200, every step in one folder: calibrate on cuda (Tables 1-2, 4, 5)
# and on vk (Table 1 through Vulkan compute), then the billeter suite on cuda and gl (Figs. 3-4, Tables
# 3-4, §5.3). The suite takes longer than a call (750 s of cuda on the H100), so a call stops itself at
# SECONDS and returns $OUT/billeter.tgz; the next call, carrying it as exp/billeter.tgz (with build-gz
# .gl .libs exp), resumes there (`winnow reproduce` resumes by default).
# Usage: bash docs/results/h200-2026-11-29/device/billeter.sh [SECONDS]
set -uo pipefail
R=repro/billeter
trap 'tar czf "$OUT/billeter.tgz" repro; exit 143' TERM
. tools/device-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
[ -f exp/billeter.tgz ] && tar xzf exp/billeter.tgz
mkdir -p $R
t0=$(date +%s)
timeout -s TERM "${1:-560}" build-carry/winnow reproduce billeter --out $R > $R/call-$(date +%H%M%S).log 2>&1
echo "reproduce exit $? in $(( $(date +%s) - t0 )) s"
tail -12 $R/call-*.log | tail -14
tar czf "$OUT/billeter.tgz" repro
