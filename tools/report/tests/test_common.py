"""What every paper's report shares (winnow_report.papers.common): lists cut short, and records of several
seeds of one case merged into one with log-mean times (the Redzone paper's statistic)."""

import pytest

from winnow_report.papers.common import Rec, first_few, merge_seeds

from .synthetic import record


def test_a_finding_that_lists_some_exceptions_says_how_many_it_left_out():
    assert first_few(["a", "b", "c"]) == "a; b; c"
    assert first_few(list("abcdef")) == "a; b; c; d; … and 2 more"
    assert first_few(list("abcdefgh"), 6, ", ") == "a, b, c, d, e, f, … and 2 more"
    assert first_few([]) == ""


def test_log_means_bounds_and_what_stays_apart():
    recs = [
        Rec({**record("cpu", "redzone", {"threads": "2"}, f"removal:1M:k=0.1:r=uniform:seed={s}", t), "winnow": c}, "t")
        for s, t, c in ((1, 100.0, "abc1234"), (2, 400.0, "abc1234"), (3, 200.0, "def5678"))
    ]  # resumed: a later build
    recs.append(
        Rec(record("cpu", "redzone", {"threads": "2"}, "removal:1M:k=0.1:r=uniform:seed=4", 1e9, verified=False), "t")
    )
    recs.append(Rec(record("cpu", "redzone", {"threads": "1"}, "removal:1M:k=0.1:r=uniform:seed=1", 50.0), "t"))
    recs.append(Rec(record("cpu", "redzone", {"threads": "2"}, "removal:64K:k=0.1:r=uniform:seed=1", 10.0), "t"))
    out = merge_seeds(recs)
    assert len(out) == 4  # the merged three, the wrong seed, threads=1, the other size
    m = out[0]
    assert m.seeds == [1, 2, 3]
    assert m.total == pytest.approx(200.0)  # (100 · 400 · 200)^(1/3)
    assert (m.total_min, m.total_max) == (100.0, 400.0)
    assert m.commits == ["abc1234", "def5678"]  # every build the seeds ran on, for the header
    assert m.case.spec == "removal:1M:k=0.1:r=uniform"
    assert m.case.seed is None
    assert sum(m.phases.values()) == pytest.approx(200.0)  # equal thirds: each phase's log mean is a third
    assert not out[1].verified
    assert out[2].params == {"threads": "1"}
    assert out[2].seeds is None  # one seed: the record as it was
    assert out[3].case.size == "64K"


def test_runs_asked_differently_are_no_seeds():
    # The host choice runs one candidate whatever schedule was asked: equal once settled, not seeds.
    recs = []
    for schedule, t in (("sequential", 100.0), ("interleaved", 110.0)):
        d = record("vkfrag", "adaptive", {"choice": "host", "schedule": schedule}, "uniform:4M:p=0.45:seed=7", t)
        d["chosen"] = {"choice": "host", "schedule": "sequential"}
        recs.append(Rec(d, "t"))
    out = merge_seeds(recs)
    assert len(out) == 2
    assert [r.case.seed for r in out] == ["7", "7"]
    assert [r.total for r in out] == [100.0, 110.0]
