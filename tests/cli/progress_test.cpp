// The progress line's estimate of the time left: record by record, from what each job took against
// the cost model at the largest size it ran, not from a count of records.
#include <gtest/gtest.h>

#include "progress.hpp"

namespace {

using winnow::cli::progress;

TEST(progress, counts_the_records_and_says_what_is_left_once_one_finished) {
  progress p(5, {{0, 100, 1.0}, {0, 100, 1.0}, {0, 100, 1.0}});
  p.skip(2); // an earlier run left two
  EXPECT_EQ(p.line(0), "[3/5 0:00]") << "nothing finished yet: no estimate";
  p.finished(10, true);
  EXPECT_EQ(p.line(10), "[4/5 0:10, ~0:20 left]") << "the first took 10 s: this one and one more of the same";
  p.finished(20, true);
  EXPECT_EQ(p.line(20), "[5/5 0:20, ~0:10 left]");
}

TEST(progress, the_records_to_come_are_weighed_by_size_and_by_what_their_job_took) {
  // Job 0 is a hundred times slower than its model says, job 1 as fast as the model; the large
  // records come last. Counting records would say 4 × (1 s a record) = 4 s left after the first two.
  progress p(6, {{0, 1e3, 0.01}, {1, 1e3, 1.0}, {0, 1e6, 10}, {1, 1e6, 10}, {0, 1e6, 10}, {1, 1e6, 10}});
  p.finished(1, true); // job 0 took 1 s against 0.01 modelled: 100×
  p.finished(2, true); // job 1 took 1 s against 1 modelled
  // Left now: job 0 at 10 modelled × 100 twice, job 1 at 10 × 1 twice.
  EXPECT_DOUBLE_EQ(p.seconds_from(2), 2 * 1000.0 + 2 * 10.0);
}

TEST(progress, a_job_not_seen_yet_goes_at_the_pace_of_everything_finished) {
  progress p(3, {{0, 10, 2.0}, {1, 10, 2.0}, {2, 10, 4.0}});
  p.finished(6, true); // job 0: 6 s against 2 modelled, 3×
  p.finished(7, true); // job 1: 1 s against 2 modelled, 0.5×
  // Job 2 at the pace of both: (6 + 1) s against (2 + 2) modelled, 1.75×.
  EXPECT_DOUBLE_EQ(p.seconds_from(2), 1.75 * 4.0);
}

TEST(progress, the_largest_size_a_job_ran_stands_for_it) {
  // A job that ran large and then small keeps the large record's ratio: the small one is all fixed cost.
  progress p(3, {{0, 1e6, 1.0}, {0, 10, 1.0}, {0, 1e6, 1.0}});
  p.finished(5, true); // at 10^6: 5×
  p.finished(6, true); // at 10: 1×, smaller, not kept
  EXPECT_DOUBLE_EQ(p.seconds_from(2), 5.0);
}

TEST(progress, a_record_that_did_not_run_teaches_nothing_and_its_time_goes_to_none) {
  progress p(3, {{0, 1e6, 1.0}, {1, 1e6, 1.0}, {1, 1e6, 1.0}});
  p.finished(4, true);    // job 0: 4×
  p.finished(4.1, false); // job 1 skipped (too large here, say): not a rate of 0.1
  EXPECT_DOUBLE_EQ(p.seconds_from(2), 4.0) << "job 1, unseen, at the pace of job 0's run";
}

} // namespace
