#!/usr/bin/env bash
# The seven calls after call1.sh, as run (each one `run` of the device tool, build-gz and .gl/.libs
# carried; calls 3 and 4 also carried repro/, unpacked here from the call before's billeter.tgz).
# Call 2 (420 s): ncu on cuda/lookback (it profiled nothing: the kernel is compact_kernel_bounded, not
# "lookback"), then docs/results/next-device-run/device/reproduce.sh billeter 380 (then named billeter.sh,
# copying docs/results/h100-2026-11-25/billeter-partial into repro/billeter first) — the CUDA step finished, the
# GL step stopped at 26 of 32 records.
# Call 3 (110 s): the same with 200 s finished the GL step; ncu with the right kernel name:
B=build-carry
for tile in 128x16m4 p128x16m3; do
  timeout 100 ncu --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
    --section SchedulerStats --section WarpStateStats -k regex:compact_kernel -c 1 $B/winnow run --algo cuda/lookback \
    --param tile=$tile --case uniform:256M:p=0.5 --reps 1 --warmup 0 --warmup-time 0 > $OUT/ncu-$tile.txt 2>&1
done
# Call 4 (8 s), with the binary of 05834bc (cuda calibrate): the cuda tests, the calibration, and the
# same reproduce command once more, which kept every record and ran the new calibrate step:
timeout 200 $B/cuda_tests --gtest_brief=1
timeout 120 $B/winnow calibrate --api cuda --out $OUT/calibrate.jsonl
timeout 200 $B/winnow reproduce billeter --out repro/billeter
tar czf $OUT/billeter.tgz repro
# Call 5 (48 s), with the binary of c04d273 (gl/histopyramid, vkfrag/histopyramid): its whole
# conformance grid, the paths suite's images on both graphics paths, and the billeter reproduction
# once more, whose GL step added the HistoPyramid's records to the geometry shader's:
WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 --gtest_filter='*histopyramid*'
timeout 100 $B/winnow bench --suite paths --algo gl/histopyramid,vkfrag/histopyramid --out $OUT --name hp-paths
timeout 300 $B/winnow reproduce billeter --out repro/billeter
tar czf $OUT/billeter.tgz repro
# Call 6 (95 s), with the binaries of 183d674 (cuda/scan_thrust, the scans' block axis, suite cis565):
WINNOW_CONFORMANCE=full timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_scan_*'
timeout 60 $B/cuda_tests --gtest_brief=1
for a in "cuda/scan_efficient --param block=32" "cuda/scan_efficient --param block=1024" "cuda/scan_naive --param block=1024" "cuda/scan_thrust"; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/winnow run --algo $a --case uniform:100003:p=0.75 --reps 2
done
timeout 360 $B/winnow reproduce cis565 --out repro/cis565
tar czf $OUT/cis565.tgz repro
# Call 7 (106 s), with the binaries of 0bbf80e (cuda/ink_atomic), repro/billeter carried:
WINNOW_CONFORMANCE=full timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_ink*'
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/ink_atomic --param block=128 \
    --case uniform:100003:p=0.5 --reps 2
done
timeout 300 $B/winnow reproduce billeter --out repro/billeter
tar czf $OUT/billeter.tgz repro
# Call 8 (19 s), with the binaries of a2695eb (the review fixes: thrust's arena helper, the calibration on event_timer):
timeout 60 $B/cuda_tests --gtest_brief=1
WINNOW_CONFORMANCE=full timeout 120 $B/conformance_tests --gtest_brief=1 \
  --gtest_filter='*cuda_scan_thrust*:*cuda_thrust*:*histopyramid*:shader_era.*'
timeout 60 $B/winnow calibrate --api cuda
