"""Draws the figure specs the paper modules build (common.Figure), and only that.

matplotlib is imported inside draw(), never at module import: reproduce.py writes report.md before
it calls draw(), so a python without matplotlib still gets its report (and is told which figures
were not drawn). The rules the figures keep:
- one colour and marker per algorithm, the same in every panel and every file (STYLES);
- one legend per figure, built from the handles actually plotted in all of its panels;
- series that coincide stay visible: the later one is drawn dashed with a larger hollow marker, and
  the caption says which ones coincide (coincidences());
- log axes where sizes span decades, sizes labelled as the case specs write them (4M, 16M).
"""

import itertools
import textwrap

from .common import size_label

# key -> (colour, marker). Families share a hue (the three Redzones are purple, the removes pink),
# so a reader who learned one figure reads the next.
STYLES = {
    # Moreira et al.: the four shader-era algorithms
    "horn": ("#1f77b4", "o"),
    "jj": ("#ff7f0e", "s"),
    "rlz": ("#2ca02c", "^"),
    "bt": ("#d62728", "D"),
    # Redzone (GPU and CPU) and its competitors
    "redzone2": ("#9467bd", "o"),
    "redzone2_published": ("#c5b0d5", "p"),
    "redzone1": ("#4a1486", "P"),
    "redzone": ("#9467bd", "h"),
    "single_pass": ("#bcbd22", "v"),
    "cub_if": ("#8c564b", "s"),
    "cub_flagged": ("#c49c94", "X"),
    "thrust_remove_if": ("#e377c2", "^"),
    "thrust_copy_if": ("#e377c2", "v"),
    "ink": ("#7f7f7f", "D"),
    "ink_atomic": ("#7f7f7f", "d"),
    # the single pass (decoupled look-back), through CUDA and through Vulkan compute
    "lookback": ("#e6550d", "o"),
    "lookback:vk": ("#fdae6b", "^"),
    # bounds drawn as lines without markers: a roofline, and a target below it
    "roofline": ("#404040", ""),
    "target": ("#7f7f7f", ""),
    "stencil": ("#17becf", "s"),
    "remove_if": ("#c51b7d", "^"),
    "par_remove_if": ("#e377c2", "v"),
    "sequential": ("#202020", "*"),
    # Redzone's inverse, compaction from a preserve list (drawn beside both Redzones)
    "preserve": ("#ff7f0e", "X"),
    # Billeter et al.: element widths of the best variant, scans, split
    "billeter": ("#393b79", "o"),
    "billeter:32": ("#393b79", "o"),
    "billeter:64": ("#6b6ecf", "s"),
    "billeter:128": ("#9c9ede", "^"),
    "billeter_scan": ("#393b79", "o"),
    "billeter_split": ("#843c39", "s"),
    "scan_naive": ("#637939", "v"),
    "scan_efficient": ("#b5cf6b", "^"),
    "scan_thrust": ("#e377c2", "P"),
    "scan_compact": ("#8c6d31", "s"),
    # Billeter's shader-era competitors on GL (the HistoPyramid a darker Binary-Tree red: both are pyramids)
    "geometry": ("#17becf", "x"),
    "histopyramid": ("#a50f15", "P"),
    # Billeter's Fig. 3: output variants (the compact variant is the line style)
    "output:staged": ("#1f77b4", "o"),
    "output:scattered": ("#ff7f0e", "s"),
    "output:buffered": ("#2ca02c", "^"),
    "output:selective": ("#d62728", "D"),
    # the three paths of one algorithm
    "api:gl": ("#1f77b4", "o"),
    "api:vkfrag": ("#ff7f0e", "s"),
    "api:vk": ("#2ca02c", "^"),
    # removal fractions (Redzone Fig. 6 draws one algorithm against r, one line per k)
    "k:0.02": ("#fdae61", "o"),
    "k:0.1": ("#f46d43", "s"),
    "k:0.5": ("#d73027", "^"),
    "k:0.9": ("#a50026", "D"),
    # The share r of the removals inside the red zone (Redzone Fig. 6 over n): light to dark.
    "r:0": ("#9ecae1", "o"),
    "r:0.25": ("#6baed6", "s"),
    "r:0.5": ("#3182bd", "^"),
    "r:0.75": ("#08519c", "D"),
    "r:1": ("#08306b", "v"),
}
PHASE_COLOURS = {
    "scan": "#4e79a7",
    "search": "#f28e2b",
    "count": "#76b7b2",
    "concat": "#59a14f",
    "runs": "#edc948",
    "reduce": "#b07aa1",
    "traverse": "#ff9da7",
    "move": "#9c755f",
    "mark": "#e15759",
    "fill": "#1b9e77",
    "orphans": "#7570b3",
    "select": "#bab0ac",
    "compact": "#66a61e",
    "remove": "#e6ab02",
    "map": "#a6761d",
    "scatter": "#666666",
    "prefix": "#d95f02",
    "flags": "#e7298a",
}
# Reference lines (no markers): a line that lies close to one of them still shows, so neither is redrawn.
BOUNDS = {"roofline", "target"}
FALLBACK = itertools.cycle(["#17becf", "#bcbd22", "#7f7f7f", "#8c564b", "#e377c2"])
# Two series whose typical (median) shared point is this close are drawn so both show: on a log axis
# 12 % is a few pixels, on a linear one 5 % is.
COINCIDE, COINCIDE_LOG = 0.05, 0.12


def closeness(panel):
    return COINCIDE_LOG if panel.ylog else COINCIDE


def style(key):
    if key.startswith("phase:"):  # a phase drawn as a line: its colour in the stacked bars
        return phase_colour(key[len("phase:") :]), "o"
    if key not in STYLES:  # an algorithm this file does not know yet: a fixed colour from now on
        STYLES[key] = (next(FALLBACK), "x")
    return STYLES[key]


def phase_colour(name):
    if name not in PHASE_COLOURS:
        PHASE_COLOURS[name] = next(FALLBACK)
    return PHASE_COLOURS[name]


def coincidences(panel):
    """Pairs of series (labels) in a line panel whose median relative gap over shared x is within closeness()
    (the median, not every point: lines that part at one point still hide each other elsewhere)."""
    out = []
    lines = [s for s in panel.series if s.style not in BOUNDS]
    for a, b in itertools.combinations(lines, 2):
        pa, pb = dict(zip(a.xs, a.ys, strict=True)), dict(zip(b.xs, b.ys, strict=True))
        gaps = sorted(abs(pa[x] - pb[x]) / max(pa[x], pb[x]) for x in pa if x in pb and pa[x] and pb[x])
        if len(gaps) >= 2 and gaps[len(gaps) // 2] <= closeness(panel):
            out.append((a.label, b.label))
    return out


def clusters(panel):
    """Groups of series that coincide (connected by coincidences()), in drawing order."""
    group = {s.label: {s.label} for s in panel.series}
    for a, b in coincidences(panel):
        merged = group[a] | group[b]
        for label in merged:
            group[label] = merged
    seen, out = set(), []
    for s in panel.series:
        g = group[s.label]
        if len(g) > 1 and s.label not in seen:
            seen |= g
            out.append([x.label for x in panel.series if x.label in g])
    return out


def hidden(panel):
    """The series drawn after another of their group: these are drawn dashed with hollow markers."""
    return {label for g in clusters(panel) for label in g[1:]}


def figure_notes(fig):
    """The caption's notes on series drawn over each other (computed without matplotlib)."""
    notes = []
    for row in fig.rows:
        for panel in row:
            if panel.stacks is not None:
                continue
            for g in clusters(panel):
                notes.append(
                    f"{panel.title}: {', '.join(g[:-1])} and {g[-1]} lie within {closeness(panel) * 100:.0f} % of each "
                    "other (median over the points); all but the first are drawn dashed with hollow markers"
                )
    return notes


def size_ticks(ax, xs):
    """A tick at every size drawn, labelled where it is at least 4× the next labelled one to its right
    (the largest always): neighbours a factor 2 apart (256M, 512M) would print over each other."""
    labels, right = [], None
    for x in sorted(xs, reverse=True):
        far = right is None or right / x >= 4
        labels.append(size_label(int(x)) if far else "")
        right = x if far else right
    ax.set_xticks(sorted(xs))
    ax.set_xticklabels(labels[::-1], rotation=0)
    ax.minorticks_off()


# Phase 1, 2, 3 … of a grouped stacked bar: the group's colour, then ever lighter, hatched.
PHASE_HATCHES = ["", "//", "..", "xx", "\\\\"]


def group_labels(panel):
    depth = max((len(ph) for g in panel.groups for ph in g.phases if ph), default=0)
    labels = [g.label for g in panel.groups] + [f"phase {i + 1}" for i in range(depth)]
    if any(m is not None for g in panel.groups for m in g.maxes):
        labels.append(MAX_LABEL)
    return labels


MAX_LABEL = "largest total over the seeds"


def legend_labels(fig_spec):
    """Every label the shared legend will hold, in drawing order (known before drawing, to size the figure)."""
    labels = []
    for row in fig_spec.rows:
        for p in row:
            if p.groups is not None:
                names = group_labels(p)
            else:
                names = [f"phase {ph}" for ph, _ in p.stacks] if p.stacks is not None else [s.label for s in p.series]
            names += [f"share: {ph}" for ph, _ in p.shares[1]] if p.shares else []
            labels += [x for x in names if x not in labels]
    return labels


def draw(fig_spec, path):
    """Draws one figure spec into path (PNG). Raises ImportError without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, cols = len(fig_spec.rows), max(len(r) for r in fig_spec.rows)
    width = max(4.3 * cols, 9.0)  # one-panel figures too: room for the title and a legend of 8 entries
    labels = legend_labels(fig_spec)
    longest = max((len(x) for x in labels), default=10)
    ncol = max(1, min(len(labels), int(width * 15 / (longest + 6))))  # ~15 legend characters per inch
    legend_in = 0.22 * -(-len(labels) // ncol) + 0.15  # the legend's own height, below the panels
    title_lines = textwrap.wrap(fig_spec.title, int(9.5 * width))  # the title must not run off the edge
    height = 3.4 * rows + 0.3 + 0.25 * len(title_lines) + legend_in
    fig, axes = plt.subplots(rows, cols, figsize=(width, height), squeeze=False, sharey=fig_spec.sharey)
    handles = {}  # label -> handle, across every panel: the one shared legend
    # A series hidden under another in any panel is dashed/hollow in every panel, so the legend holds.
    over = {label for row in fig_spec.rows for p in row if p.stacks is None for label in hidden(p)}
    for r, row in enumerate(fig_spec.rows):
        for c in range(cols):
            ax = axes[r][c]
            if c >= len(row):
                ax.set_visible(False)
                continue
            panel = row[c]
            if panel.groups is not None:
                draw_groups(ax, panel, handles)
            elif panel.stacks is not None:
                draw_bars(ax, panel, handles)
            else:
                draw_lines(ax, panel, handles, over)
            if panel.xcomplement:
                flip = lambda x: 100 - x  # noqa: E731  (its own inverse)
                top = ax.secondary_xaxis("top", functions=(flip, flip))
                top.set_xlabel(panel.xcomplement, fontsize=8)
                top.tick_params(labelsize=8)
            ax.set_title(panel.title, fontsize=10)
            ax.set_xlabel(panel.xlabel)
            ax.set_ylabel(panel.ylabel)
            ax.grid(True, which="major", alpha=0.3)
    fig.suptitle("\n".join(title_lines), fontsize=11)
    if handles:
        fig.legend(
            list(handles.values()), list(handles.keys()), loc="lower center", ncol=ncol, fontsize=8, frameon=False
        )
    top = 1 - (0.2 * len(title_lines) + 0.05) / height
    fig.tight_layout(rect=(0, legend_in / height, 1, top))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def draw_lines(ax, panel, handles, over_labels):
    drawn = []
    for s in panel.series:
        colour, marker = style(s.style)
        pts = sorted((x, y) for x, y in zip(s.xs, s.ys, strict=True) if y is not None)
        if not pts:
            continue
        over = s.label in over_labels
        (line,) = ax.plot(
            [p[0] for p in pts],
            [p[1] for p in pts],
            color=colour,
            marker=marker,
            linestyle="--" if over else (s.linestyle or "-"),
            markersize=8 if over else 5,
            markerfacecolor="none" if over or s.linestyle in ("--", ":") else colour,
            linewidth=1.3,
            label=s.label,
            zorder=3 if over else 2,
        )
        handles.setdefault(s.label, line)
        drawn.append(pts)
        if s.lo and s.hi:
            bars = [
                (x, lo, hi)
                for x, y, lo, hi in zip(s.xs, s.ys, s.lo, s.hi, strict=True)
                if y is not None and lo is not None
            ]
            ax.vlines(
                [b[0] for b in bars],
                [b[1] for b in bars],
                [b[2] for b in bars],
                color=colour,
                linewidth=1,
                alpha=0.8,
                zorder=2,
            )
    if panel.shares:
        draw_shares(ax, panel.shares, handles)
    xs = sorted({p[0] for pts in drawn for p in pts})
    if panel.xlog:
        ax.set_xscale("log", base=panel.xlog)
        if xs and panel.xlog == 2:
            size_ticks(ax, xs)
    if panel.ylog:
        ax.set_yscale("log")
        log_labels(ax)
    if panel.xticks:
        ax.set_xticks(panel.xticks[0])
        ax.set_xticklabels(panel.xticks[1])
    if not panel.ylog and panel.yzero:
        ax.set_ylim(bottom=0)


def draw_shares(ax, shares, handles):
    """Each phase's share of the phases' sum, stacked grey areas (darker first) on a twin 0-100 % axis drawn
    behind ax's lines."""
    from matplotlib.patches import Patch

    xs, phases = shares
    greys = [str(0.35 + 0.4 * i / max(1, len(phases) - 1)) for i in range(len(phases))]
    twin = ax.twinx()
    areas = twin.stackplot(xs, [values for _, values in phases], colors=greys, alpha=0.45, linewidth=0)
    twin.set_ylim(0, 100)
    twin.set_ylabel("share of the phases [%]", fontsize=8)
    twin.tick_params(labelsize=8)
    ax.set_zorder(twin.get_zorder() + 1)  # the lines in front of the areas
    ax.patch.set_visible(False)
    for (phase, _), area in zip(phases, areas, strict=True):
        handles.setdefault(f"share: {phase}", Patch(facecolor=area.get_facecolor()[0], alpha=0.45))


def log_labels(ax):
    """Plain numbers at 1, 2, 5 × 10^k on a log axis: a reader needs more than one label per decade.
    An axis spanning less than a decade and a half gets 1, 1.5, 2, 3, 5, 7 × 10^k, so that a curve
    lying between two of the coarse labels still has one beside it. Call it once the data is drawn."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    lo, hi = ax.get_ylim()
    fine = lo > 0 and hi / lo < 30
    subs = (1.0, 1.5, 2.0, 3.0, 5.0, 7.0) if fine else (1.0, 2.0, 5.0)
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def draw_bars(ax, panel, handles):
    import numpy as np

    x = np.arange(len(panel.categories))
    bottom = np.zeros(len(panel.categories))
    for phase, values in panel.stacks:
        v = np.array([0.0 if y is None else y for y in values])
        if panel.horizontal:
            bars = ax.barh(x, v, left=bottom, color=phase_colour(phase), height=0.7, label=phase)
        else:
            bars = ax.bar(x, v, bottom=bottom, color=phase_colour(phase), width=0.75, label=phase)
        handles.setdefault(f"phase {phase}", bars)
        bottom += v
    if panel.horizontal:
        # Shares of a whole: 0 … 100 % with a divider every 20 %, as the paper draws them; the first
        # category on top.
        ax.set_yticks(x)
        ax.set_yticklabels(panel.categories, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xticks(range(0, 101, 20))
        return
    ax.set_xticks(x)
    ax.set_xticklabels(panel.categories, rotation=60, ha="right", fontsize=7)
    if len(bottom) and bottom.max() > 0:
        ax.set_ylim(0, bottom.max() * 1.08)  # the tallest stack's top stays inside the frame


def draw_groups(ax, panel, handles):
    """Per category one bar per group, stacked by the group's phases (the last at the bottom, phase 1
    on top; phase 1 solid, the later ones lighter and hatched), on a log axis as the Redzone paper
    draws them; a black bar mark at each group's largest total over the seeds."""
    import numpy as np
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Patch

    n_cat, n_grp = len(panel.categories), len(panel.groups)
    width = 0.8 / max(n_grp, 1)
    x = np.arange(n_cat)
    tops = []
    for i, g in enumerate(panel.groups):
        colour = np.array(to_rgb(style(g.style)[0]))
        at = x - 0.4 + width * (i + 0.5)
        for j, phases in enumerate(g.phases):
            if not phases:
                continue
            bottom = 0.0
            # The paper's order: the last phase at the bottom, phase 1 (the marking) on top, so that a
            # reader can take phase 1 off by eye.
            for depth, (_, v) in reversed(list(enumerate(phases))):
                if not v or v <= 0:
                    continue
                shade = colour + (1 - colour) * min(0.25 * depth, 0.75)  # later phases lighter
                ax.bar(
                    at[j],
                    v,
                    bottom=bottom,
                    width=width,
                    color=shade,
                    edgecolor=colour * 0.6,
                    linewidth=0.5,
                    hatch=PHASE_HATCHES[min(depth, len(PHASE_HATCHES) - 1)],
                )
                bottom += v
            tops.append(bottom)
        handles.setdefault(g.label, Patch(facecolor=colour, edgecolor=colour * 0.6))
        marks = [(at[j], m) for j, m in enumerate(g.maxes) if m is not None]
        if marks:
            (line,) = ax.plot(
                [p[0] for p in marks],
                [p[1] for p in marks],
                linestyle="none",
                marker="_",
                markersize=9,
                markeredgewidth=1.6,
                color="black",
                zorder=4,
            )
            tops += [p[1] for p in marks]
    for depth in range(max((len(ph) for g in panel.groups for ph in g.phases if ph), default=0)):
        handles.setdefault(
            f"phase {depth + 1}",
            Patch(facecolor="white", edgecolor="#555555", hatch=PHASE_HATCHES[min(depth, len(PHASE_HATCHES) - 1)]),
        )
    if any(m is not None for g in panel.groups for m in g.maxes):
        from matplotlib.lines import Line2D

        handles.setdefault(
            MAX_LABEL, Line2D([], [], linestyle="none", marker="_", markersize=9, markeredgewidth=1.6, color="black")
        )
    ax.set_xticks(x)
    ax.set_xticklabels(panel.categories, fontsize=8)
    if panel.ylog:
        ax.set_yscale("log")
        log_labels(ax)
        positive = [v for g in panel.groups for ph in g.phases if ph for _, v in ph[-1:] if v and v > 0]
        if positive and tops:
            ax.set_ylim(min(positive) * 0.5, max(tops) * 1.5)
