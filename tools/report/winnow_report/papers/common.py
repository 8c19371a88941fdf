"""What every paper's report shares: reading a `winnow reproduce` folder, cases, tables, verdicts
and figure specs.

The folder (the contract with tools/winnow's `reproduce` command):
  DIR/reproduce.json                manifest: papers, quick, winnow, command, steps (status per step)
  DIR/<api>/<suite>.jsonl           records, schema 1 (or <suite>.journal.jsonl when the bench was killed)
  DIR/<api>/<suite>.status.json     complete / records / planned / not_run (may be absent)
  DIR/<api>/calibrate.jsonl         pass-model constants of that api
Everything a table or a verdict lacks is explained from these files, never guessed: a missing table
names the step's reason, the status file or the cases that were skipped.
"""

import gzip
import json
import math
import pathlib
import re
import statistics
import sys
import traceback
from dataclasses import dataclass, field

DASH = "—"
HOLDS, CHANGED, NOT_MEASURED = "holds", "changed", "not measured"
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


class InputError(Exception):
    """Input that cannot be read (bad JSON, not a record): the only reason to exit non-zero."""


class NotMeasured(Exception):
    """Raised by a finding whose data is missing; the message says why."""


# ---------------------------------------------------------------------------------------------- cases


def parse_size(token):
    """'4M' -> 4194304, '5000' -> 5000; None when the token is not a size."""
    m = re.fullmatch(r"(\d+)([KMG]?)", token or "")
    return int(m.group(1)) * SIZE_UNITS[m.group(2)] if m else None


def size_label(n):
    """4194304 -> '4M' (binary suffixes, as the case specs write sizes)."""
    for suffix in ("G", "M", "K"):
        if n >= SIZE_UNITS[suffix] and n % SIZE_UNITS[suffix] == 0:
            return f"{n // SIZE_UNITS[suffix]}{suffix}"
    return str(n)


def bytes_label(n):
    """Elements of 4 bytes as the Redzone paper labels its sizes: 32M elements -> '128 MiB'."""
    b = 4 * n
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b} B"


class Case:
    """A canonical case spec: family:size:key=value...; the seed is kept apart (it names no row)."""

    def __init__(self, spec):
        parts = spec.split(":")
        self.spec = spec
        self.family = parts[0]
        self.size = parts[1] if len(parts) > 1 and "=" not in parts[1] else ""
        rest = parts[2:] if self.size else parts[1:]
        kv = dict(p.split("=", 1) if "=" in p else (p, "") for p in rest)
        self.seed = kv.pop("seed", None)
        self.keys = kv

    def key(self, name, default=None):
        return self.keys.get(name, default)

    def fkey(self, name, default=None):
        """A numeric key (k, p, r) as a float; None when absent or not a number ('r=uniform')."""
        try:
            return float(self.keys[name])
        except (KeyError, ValueError):
            return default


# -------------------------------------------------------------------------------------------- records

# The shader-era algorithms' default parameters, as `winnow list` gives them; where two algorithms
# share a key, per algorithm (RLZ's search is plain/fast, Horn's loop/steps). A record without a key
# (written before the axis existed) counts as the default there.
SHADER_DEFAULTS = {"scan": "hillis", "runs": "doubling", "loop_limit": "none"}
SEARCH_DEFAULT = {"rlz": "fast", "horn": "loop"}
# The fragment paths' default since concat=stacks. Records before it ran concat=auto (the moreira
# suite's still do), or for two commits (35bd6af) concat=pairs, stacks of two rows: both count as the
# default too (is_shader_default), so earlier results still report as they did.
DEFAULT_CONCAT = {"gl": "stacks", "vkfrag": "stacks", "vk": "copy"}
FORMER_DEFAULT_CONCAT = {"auto", "pairs"}


def is_shader_default(r, api):
    """Whether a shader-era record ran with every default parameter. concat=auto (the fragment paths'
    default before stacks, and the moreira suite's) is the default whichever method its probe chose; the
    record's params read as the choice."""
    search = SEARCH_DEFAULT.get(r.algo)
    concat = r.given.get("concat") in FORMER_DEFAULT_CONCAT or r.p("concat", DEFAULT_CONCAT[api]) == DEFAULT_CONCAT[api]
    return all(r.p(k, v) == v for k, v in SHADER_DEFAULTS.items()) and r.p("search", search) == search and concat


class Rec:
    """One record, with the fields the reports use parsed once."""

    def __init__(self, d, where):
        try:
            self.d = d
            self.algorithm = d["algorithm"]
            self.api = d.get("api") or self.algorithm.split("/")[0]
            self.algo = self.algorithm.split("/", 1)[-1]
            # What ran: a parameter given as "auto" reads as what the run chose (the record's "chosen").
            self.given = {k: str(v) for k, v in (d.get("params") or {}).items()}
            self.params = {**self.given, **{k: str(v) for k, v in (d.get("chosen") or {}).items()}}
            # What the algorithm weighed to decide how to run (the adaptive algorithm's choice=auto).
            self.notes = {k: str(v) for k, v in (d.get("notes") or {}).items()}
            self.case = Case(d["case"])
            self.n = int(d.get("n") or parse_size(self.case.size) or 0)
            self.skipped = d.get("skipped")
            self.verified = bool(d.get("verified"))
            self.usable = not self.skipped and self.verified
            self.total = float(d["total"]["median_ns"]) if not self.skipped else None
            # Relative noise of the total (stddev / mean); records from before winnow recorded it have none.
            self.noise = d["total"].get("noise") if not self.skipped else None
            self.phases = {p["name"]: float(p["median_ns"]) for p in d.get("phases") or []} if not self.skipped else {}
            self.seeds = None  # merge_seeds: the seeds a merged record stands for, and its total's bounds
            self.total_max = self.total_min = None
            self.commits = [d["winnow"]] if d.get("winnow") else []  # merged: every build its seeds ran on
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise InputError(f"{where}: not a winnow record ({type(e).__name__}: {e})") from None

    def p(self, name, default=None):
        return self.params.get(name, default)

    @property
    def runs(self):
        """How many runs (seeds) the record stands for: 1 unless merge_seeds merged several."""
        return len(self.seeds) if self.seeds else 1

    def moved(self):
        return (self.d.get("bytes_read") or 0) + (self.d.get("bytes_written") or 0)

    def describe(self):
        params = ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.algorithm} ({params or 'defaults'}) on {self.case.spec}"


def merge_seeds(records):
    """Records that differ only in their case's seed (`winnow bench --seeds N`, or a suite's "seeds")
    become one, as Bontes & Gain report 20 seeds: each phase and the total the logarithmic mean of the
    seeds' medians; `seeds` lists them, `total_max` and `total_min` bound the total. A wrong or
    skipped seed keeps its own record (and so still shows as wrong or skipped). One seed: unchanged."""
    groups, order = {}, []
    for r in records:
        if r.case.seed is None or not r.usable:
            order.append(r)
            continue
        base = ":".join(p for p in r.case.spec.split(":") if not p.startswith("seed="))
        # The parameters as given: two runs asked differently but settling the same (the adaptive
        # algorithm's host choice, asked for either schedule, runs one) are two records, not two seeds.
        key = (r.algorithm, tuple(sorted(r.given.items())), r.d.get("device"), base)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    out = []
    for item in order:
        if isinstance(item, Rec):
            out.append(item)
            continue
        members = groups[item]
        if len(members) == 1:
            out.append(members[0])
            continue
        log_mean = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs and min(xs) > 0 else 0.0  # noqa: E731
        d = dict(members[0].d)
        d["case"] = item[3]
        d["total"] = {"median_ns": log_mean([m.total for m in members]), "noise": max((m.noise or 0) for m in members)}
        names = list(dict.fromkeys(name for m in members for name in m.phases))
        d["phases"] = [
            {"name": name, "median_ns": log_mean([m.phases[name] for m in members if name in m.phases])}
            for name in names
        ]
        merged = Rec(d, f"{len(members)} seeds of {members[0].describe()}")
        merged.seeds = sorted(int(m.case.seed) for m in members)
        merged.total_max = max(m.total for m in members)
        merged.total_min = min(m.total for m in members)
        merged.commits = list(dict.fromkeys(c for m in members for c in m.commits))  # a resumed run mixes builds
        out.append(merged)
    return out


def load_jsonl(path, journal=False):
    """Records of one file. A journal's last line may be cut short by a kill: that line is dropped."""
    out = []
    try:
        path = pathlib.Path(path)
        if path.suffix == ".gz":
            with gzip.open(path, "rt") as f:
                lines = f.read().splitlines()
        else:
            lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError, EOFError) as e:
        raise InputError(f"{path}: cannot read ({e})") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            if journal and number == len(lines):
                break
            raise InputError(f"{path}:{number}: not JSON ({e})") from None
        if not isinstance(d, dict):
            raise InputError(f"{path}:{number}: not a JSON object")
        out.append((d, f"{path}:{number}"))
    return out


def load_json(path):
    try:
        return json.loads(pathlib.Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: cannot read ({e})") from None


# ---------------------------------------------------------------------------------------- the folder


class Source:
    """One bench: the records of one suite on one api, with what the manifest and status say of it."""

    def __init__(self, run, api, suite):
        self.run, self.api, self.suite = run, api, suite
        folder = run.dir / api
        self.path = folder / f"{suite}.jsonl"
        if not self.path.exists() and (folder / f"{suite}.jsonl.gz").exists():
            self.path = folder / f"{suite}.jsonl.gz"  # committed results are kept compressed
        journal = folder / f"{suite}.journal.jsonl"
        self.from_journal = False
        self.exists = True
        if self.path.exists():
            raw = load_jsonl(self.path)
        elif journal.exists():  # killed before it could write the final file
            raw, self.from_journal = load_jsonl(journal, journal=True), True
        else:
            raw, self.exists = [], False
        self.records = merge_seeds([Rec(d, where) for d, where in raw if "algorithm" in d])
        status_path = folder / f"{suite}.status.json"
        self.status = load_json(status_path) if status_path.exists() else None
        self.step = run.step("bench", api, suite)
        self.usable = [r for r in self.records if r.usable]
        self.wrong = [r for r in self.records if not r.skipped and not r.verified]
        self.skipped = [r for r in self.records if r.skipped]

    def rel(self):
        return f"{self.api}/{self.path.name}"

    def first(self):
        return self.usable[0].d if self.usable else (self.records[0].d if self.records else {})

    def not_run_reason(self):
        """The manifest's reason when the api cannot run on this machine (or the status file's)."""
        reason = None
        if self.step and self.step.get("status") == "not run":
            reason = self.step.get("reason") or "no reason given in the manifest"
        elif self.api in ((self.status or {}).get("not_run") or {}) and not self.usable:
            reason = self.status["not_run"][self.api]
        if reason is None:
            return None
        prefix = f"{self.api}: "  # the reasons name their api already: "cuda: no CUDA device (...)"
        return f"{self.api} not run here: {reason[len(prefix) :] if reason.startswith(prefix) else reason}"

    def interrupted(self):
        """Why the records may be incomplete, or None."""
        why = []
        if self.status is not None and self.status.get("complete") is False:
            why.append(
                f"the bench was interrupted: {self.status.get('records', '?')} of "
                f"{self.status.get('planned', '?')} planned records ({self.api}/{self.suite}.status.json)"
            )
        elif self.step and self.step.get("status") == "interrupted":
            why.append(f"the bench was interrupted (manifest step, after {self.step.get('seconds', '?')} s)")
        if self.from_journal:
            why.append(
                f"only its journal {self.api}/{self.suite}.journal.jsonl is there (killed before the final file)"
            )
        return "; ".join(why) or None

    def failed(self):
        if self.step and self.step.get("status") == "failed":
            return (
                f"`{self.step.get('command') or 'the bench'}` exited with status {self.step.get('exit')}"
                + (f" ({self.step['reason']})" if self.step.get("reason") else "")
                + "; its verified records are used"
            )
        return None

    def missing(self):
        """Why there is no usable record at all, or None when there is one."""
        if self.usable:
            return None
        reason = self.not_run_reason()
        if reason:
            return reason
        if not self.exists:
            if self.step:
                st = self.step.get("status")
                return (
                    f"no {self.rel()}: the step `{self.step.get('command') or 'bench'}` is '{st}'"
                    + (f", exit {self.step.get('exit')}" if self.step.get("exit") not in (None, 0) else "")
                    + (f": {self.step['reason']}" if self.step.get("reason") else "")
                )
            if self.run.manifest is not None:
                return (
                    f"the manifest has no bench step for suite {self.suite} on {self.api}, and there is no {self.rel()}"
                )
            return f"no {self.rel()} in {self.run.dir}"
        parts = []
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped ({summarize_skips(self.skipped)})")
        if self.wrong:
            parts.append(f"{len(self.wrong)} failed verification")
        if self.interrupted():
            parts.append(self.interrupted())
        return f"no usable record in {self.rel()}" + (": " + "; ".join(parts) if parts else " (the file is empty)")


def first_few(items, limit=4, sep="; "):
    """The first `limit` items joined, and how many more there are: a finding that lists only some
    of its exceptions must not read as if those were all."""
    return sep.join(items[:limit]) + (f"{sep}… and {len(items) - limit} more" if len(items) > limit else "")


def summarize_skips(recs, limit=2):
    reasons = {}
    for r in recs:
        # The reason repeats the case spec in front; the part after it is what differs.
        text = str(r.skipped).split(": ", 1)[-1] if str(r.skipped).startswith(r.case.spec) else str(r.skipped)
        reasons.setdefault(text, 0)
        reasons[text] += 1
    items = sorted(reasons.items(), key=lambda kv: -kv[1])
    out = "; ".join(f"{text} ×{count}" if count > 1 else text for text, count in items[:limit])
    return out + (f"; and {len(items) - limit} other reasons" if len(items) > limit else "")


COPY_NAME = re.compile(r"^copy_bytes_per_ns_(\d+[KMG]?)(?:_items(\d+))?$")


class Calibration:
    """The pass-model constants of one api, measured on the same device as the records (or a reason).

    Copy bandwidth: the largest copy_bytes_per_ns_<size> present (quick mode on a software driver
    calibrates at whatever sizes it can), with the _items<N> variant when the records run N items
    per invocation. Constants of another device are never combined with the records: a calibration
    whose device differs from the records' is refused with the reason. device None takes any device's
    (tables drawn from the calibration alone, which name its device)."""

    def __init__(self, run, api, device, pass_model=True):
        """device None: any device's constants (tables drawn from the calibration alone)."""
        self.api, self.values, self.units, self.reason, self.names, self.device = api, {}, {}, None, {}, "?"
        path = run.dir / api / "calibrate.jsonl"
        step = run.step("calibrate", api, None)
        if not path.exists():
            if step and step.get("status") == "not run":
                self.reason = f"no calibration: {api} not run here ({step.get('reason')})"
            elif step:
                self.reason = f"no {api}/calibrate.jsonl: the calibrate step is '{step.get('status')}'" + (
                    f" ({step['reason']})" if step.get("reason") else ""
                )
            else:
                self.reason = f"no {api}/calibrate.jsonl (the manifest has no calibrate step for {api})"
            return
        lines = [d for d, _ in load_jsonl(path) if d.get("api", api) == api]
        devices = {d.get("device") for d in lines if d.get("device")}
        self.device = ", ".join(sorted(devices)) or "?"
        if device and devices and device not in devices:
            self.reason = (
                f"{api}/calibrate.jsonl was measured on {', '.join(sorted(devices))}, the records on {device}: not used"
            )
            return
        for d in lines:
            try:
                self.values[d["name"]] = float(d["value"])
                self.units[d["name"]] = d.get("unit")
            except (KeyError, TypeError, ValueError):
                raise InputError(f"{path}: a line without name/value: {d}") from None
        if not pass_model:
            return
        if "empty_pass_ns" not in self.values:
            self.reason = f"{api}/calibrate.jsonl has no empty_pass_ns"
        elif not any(COPY_NAME.match(k) for k in self.values):
            self.reason = f"{api}/calibrate.jsonl has no copy_bytes_per_ns_<size>"

    @property
    def ok(self):
        return self.reason is None

    @property
    def empty_pass_ns(self):
        return self.values.get("empty_pass_ns")

    def copy(self, items=None):
        """(bytes per ns, name) of the largest copy measured, matching items per invocation if given."""
        best = {}
        for name, value in self.values.items():
            m = COPY_NAME.match(name)
            if m:
                best.setdefault(m.group(2), []).append((parse_size(m.group(1)), name, value))
        pool = best.get(str(items)) if items and str(items) != "1" and str(items) in best else best.get(None)
        if not pool:
            pool = [x for v in best.values() for x in v]
        if not pool:
            return None, None
        _, name, value = max(pool)
        return value, name

    def model_ns(self, rec):
        """passes × empty pass + bytes moved / copy bandwidth, for one record."""
        bw, _ = self.copy(rec.p("items"))
        launches = rec.d.get("launches")
        if not self.ok or not bw or launches is None:
            return None
        return launches * self.empty_pass_ns + rec.moved() / bw


class Run:
    """The folder: manifest, and the sources and calibrations read from it (each read once)."""

    def __init__(self, folder):
        self.dir = pathlib.Path(folder)
        if not self.dir.is_dir():
            raise InputError(f"{self.dir}: not a folder")
        path = self.dir / "reproduce.json"
        self.manifest = load_json(path) if path.exists() else None
        if self.manifest is not None and not isinstance(self.manifest, dict):
            raise InputError(f"{path}: not a JSON object")
        self.quick = bool((self.manifest or {}).get("quick"))
        self._sources, self._calib = {}, {}

    def step(self, kind, api, suite):
        """The manifest's step; `suite` is the results' name (a step that runs a suite over other cases
        names them otherwise: `name`, absent from manifests before such steps)."""
        for s in (self.manifest or {}).get("steps") or []:
            if (
                s.get("kind") == kind
                and s.get("api") == api
                and (suite is None or (s.get("name") or s.get("suite")) == suite)
            ):
                return s
        return None

    def source(self, api, suite):
        if (api, suite) not in self._sources:
            self._sources[(api, suite)] = Source(self, api, suite)
        return self._sources[(api, suite)]

    def calibration(self, api, device, pass_model=True):
        """api's calibrate.jsonl measured on `device` (None: on any); pass_model: it must hold a pass model's constants."""
        key = (api, device, pass_model)
        if key not in self._calib:
            self._calib[key] = Calibration(self, api, device, pass_model)
        return self._calib[key]


# --------------------------------------------------------------------------------------- selections


def pick(recs, algo=None, family=None, n=None, **keys):
    """Records by short algorithm name, case family, size and case keys (k='0.02', p=0.5 as float)."""
    out = []
    for r in recs:
        if algo is not None and r.algo != algo:
            continue
        if family is not None and r.case.family != family:
            continue
        if n is not None and r.n != n:
            continue
        if any(not key_matches(r.case, k, v) for k, v in keys.items()):
            continue
        out.append(r)
    return out


def key_matches(case, name, want):
    if isinstance(want, float):
        got = case.fkey(name)
        return got is not None and abs(got - want) < 1e-9
    return case.key(name) == want


def best(recs):
    """The fastest record (any variant), or None."""
    recs = [r for r in recs if r.usable]
    return min(recs, key=lambda r: r.total) if recs else None


def sizes_of(recs):
    return sorted({r.n for r in recs})


def fvals(recs, name):
    """The numeric values a case key takes (k, p, r), sorted."""
    return sorted({v for v in (r.case.fkey(name) for r in recs) if v is not None})


def mean(xs):
    xs = list(xs)
    return statistics.mean(xs) if xs else None


def pct(x):
    """A fraction named by a case key (k, p, r): 0.02 -> '2 %'."""
    return f"{x * 100:g} %"


def pc(x):
    """A measured fraction, rounded: 0.3333 -> '33 %'."""
    return f"{x * 100:.0f} %"


def ratio_range(values):
    """'1.9×–3.1×' (or '2.0×' when there is one)."""
    values = sorted(values)
    if not values:
        return DASH
    lo, hi = values[0], values[-1]
    return f"{lo:.2f}×" if math.isclose(lo, hi, rel_tol=5e-3) else f"{lo:.2f}×–{hi:.2f}×"


def fmt_ms(ns, digits=3):
    return DASH if ns is None else f"{ns / 1e6:.{digits}f}"


# ------------------------------------------------------------------------------------------- tables


class Table:
    """A Markdown table that knows whether any cell was measured (report.json's 'filled').

    A paper table made of several blocks (Moreira's Table 1: one block per image pair) is one Table
    with several groups: sub(head) starts the next group, add() fills the last one."""

    def __init__(self, name, head=None, note=None):
        self.name, self.note = name, note
        self.groups = [[head, []]] if head else []
        self.measured, self.missing, self.after = 0, None, []

    def sub(self, head):
        self.groups.append([head, []])

    def val(self, x, fmt=lambda v: f"{v:.3f}"):
        """A measured cell: counts it, or '—' when there is no value."""
        if x is None:
            return DASH
        self.measured += 1
        return fmt(x)

    def add(self, cells):
        self.groups[-1][1].append([str(c) for c in cells])

    @property
    def filled(self):
        return self.measured > 0

    def markdown(self):
        out = [f"### {self.name}", ""]
        if self.note:
            out += [self.note, ""]
        if not self.filled:
            return out + [f"Not made: {self.missing or 'no measured cell'}.", ""]
        for head, rows in self.groups:
            if not rows:
                continue
            out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(r) + " |" for r in rows]
            out.append("")
        if self.after:
            out += self.after + [""]
        return out

    def json(self):
        return {
            "name": self.name,
            "filled": self.filled,
            "missing": None if self.filled else (self.missing or "no measured cell"),
        }


# ----------------------------------------------------------------------------------------- verdicts


@dataclass
class Verdict:
    finding: str
    source: str
    verdict: str
    evidence: str
    reason: str = None
    scope: str = None  # the api (or other subset) a finding was judged on; part of the finding's name

    def json(self):
        return {
            "finding": self.finding,
            "source": self.source,
            "verdict": self.verdict,
            "evidence": self.evidence,
            "reason": self.reason,
        }


# --------------------------------------------------------------------------------------- figure specs


@dataclass
class Series:
    label: str
    xs: list
    ys: list
    style: str  # key into plots.STYLES: one colour and marker per algorithm, in every file
    linestyle: str = None  # overrides the style's, for variants of one algorithm in one panel
    lo: list = None  # per x, the bottom and top of an error bar (the range a mean stands for), or None
    hi: list = None


@dataclass
class Panel:
    title: str
    xlabel: str
    ylabel: str
    series: list = field(default_factory=list)
    xlog: int = None  # log base of the x axis, or None
    ylog: bool = False
    xticks: list = None  # (positions, labels)
    yzero: bool = True  # linear y from 0; False where the series differ by a few per cent
    # A second x axis on top reading 100 − x, with this label: per cent valid below, per cent invalid above
    # (Moreira et al. speak of densities of invalid elements).
    xcomplement: str = None
    # Behind the lines, each phase's share (per cent of the phases' sum) as grey stacked areas on a 0-100 % axis at the
    # right (the Redzone paper's Fig. 6): (xs, [(phase, [per cent per x])]), the first phase at the bottom.
    shares: tuple = None
    # Stacked bars instead of lines: categories on x, one stack per phase.
    categories: list = None
    stacks: list = None  # [(phase, [value per category])]
    horizontal: bool = False  # stacked bars drawn left to right (categories top to bottom)
    # Or grouped stacked bars (the Redzone paper's Figs. 4-7): per category one bar per group, each
    # stacked by that group's own phases (the last at the bottom, phase 1 on top), and a mark at the
    # group's largest total.
    groups: list = None  # [Group]


@dataclass
class Group:
    label: str
    style: str  # plots.STYLES key: the group's colour
    phases: list  # per category: [(phase name, value), ...] in phase order, or None where it did not run
    maxes: list  # per category: the largest total over the seeds, or None


@dataclass
class Figure:
    file: str
    title: str
    caption: str
    rows: list = field(default_factory=list)  # rows of panels
    missing: str = None
    sharey: bool = False  # one y scale for all panels, where panels are compared with each other
    drawn: bool = False
    error: str = None
    notes: list = field(default_factory=list)  # lines under the caption: what the figure leaves out, and why

    def json(self):
        return {
            "file": self.file,
            "title": self.title,
            "caption": self.caption,
            "drawn": self.drawn,
            "missing": None if self.drawn else (self.missing or self.error or "not drawn"),
        }


# -------------------------------------------------------------------------------------------- paper


class Paper:
    """One paper's section: what build() fills, and what reproduce.py writes out."""

    def __init__(self, run, name, module):
        self.run, self.name, self.module = run, name, module
        self.title = module.TITLE
        self.sources = {api: run.source(api, module.SUITE) for api in module.APIS}
        self.more_sources = []  # the other suites build() reads, listed in the header beside the main ones
        self.intro, self.tables, self.figures, self.verdicts, self.missing = [], [], [], [], []
        self.not_reproduced = []

    def source(self, api, suite):
        """Another suite's records (a figure of its own); the header then says how many and whether complete."""
        src = self.run.source(api, suite)
        if src not in self.more_sources and src not in self.sources.values():
            self.more_sources.append(src)
        return src

    def table(self, *args, **kw):
        t = Table(*args, **kw)
        self.tables.append(t)
        return t

    def figure(self, *args, **kw):
        f = Figure(*args, **kw)
        self.figures.append(f)
        return f

    def check(self, finding, source, fn, *args, scope=None):
        """Runs one finding: fn returns (holds?, evidence) or raises NotMeasured(reason)."""
        name = finding + (f" [{scope}]" if scope else "")
        try:
            ok, evidence = fn(*args)
            v = Verdict(name, source, HOLDS if ok else CHANGED, evidence)
        except NotMeasured as e:
            v = Verdict(name, source, NOT_MEASURED, "", str(e))
        except Exception as e:  # a bug in one finding must not cost the others; the console shows it
            traceback.print_exc(file=sys.stderr)
            v = Verdict(name, source, NOT_MEASURED, "", f"internal error: {type(e).__name__}: {e}")
        v.scope, v.base = scope, finding
        self.verdicts.append(v)

    def lacking(self, api, what, recs=None):
        """Why `what` cannot be measured on `api`: the source's reason, or the skipped cases, or quick mode."""
        src = self.sources[api]
        why = src.missing()
        if why:
            return why
        parts = [f"no usable {api} record for {what}"]
        skipped = [r for r in (recs if recs is not None else src.skipped) if r.skipped]
        if skipped:
            parts.append(f"skipped: {summarize_skips(skipped)}")
        if src.interrupted():
            parts.append(src.interrupted())
        if self.run.quick:
            parts.append("the quick run lacks it")
        return "; ".join(parts)

    def devices(self, apis):
        """'llvmpipe (gl, vkfrag, vk)' or 'A (gl); B (vk)': each device once, with the apis that ran on it."""
        by = {}
        for api in apis:
            by.setdefault(self.header(api)[0], []).append(api)
        return "; ".join(f"{dev} ({', '.join(a)})" for dev, a in by.items())

    def header(self, api, src=None):
        """device, driver and winnow commit(s) of one api's records (of `src`, another suite's source, where
        given), for intros and figure titles: every commit the usable records name, in their order (a resumed
        run may add records of a later one)."""
        src = src if src is not None else self.sources[api]
        d = src.first()
        commits = list(dict.fromkeys(c for r in src.usable for c in r.commits))
        commit = ", ".join(commits) or d.get("winnow") or (self.run.manifest or {}).get("winnow", "?")
        return d.get("device") or "?", d.get("driver") or "?", commit
