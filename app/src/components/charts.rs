//! Small SVG charts: a horizontal bar chart with labels and percentages, and a stacked
//! pass / fail / error / skip bar.
//!
//! No chart library: these two shapes are a few dozen lines of SVG, where a library would add
//! tens of kilobytes of wasm to a budget with little headroom. Colours are the Okabe–Ito palette
//! through the stylesheet's variables (`--pass`, `--fail`, `--error`, `--skip`, `--accent`), so
//! they follow light and dark mode and stay distinguishable with colour-vision deficiencies;
//! every number is also written as text, so no value is told by colour alone.

use leptos::prelude::*;
use scorer::report::{Status, TestOutcome};

/// One bar: `value` out of `total` (a share, shown as a percentage and as `value/total`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    pub label: String,
    pub value: u32,
    pub total: u32,
}

impl Bar {
    pub fn new(label: impl Into<String>, value: u32, total: u32) -> Self {
        Bar { label: label.into(), value, total }
    }

    /// The share in [0, 1]; 0 for an empty total.
    pub fn share(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            (f64::from(self.value) / f64::from(self.total)).clamp(0.0, 1.0)
        }
    }
}

/// Percentage text with one decimal where it matters (`100%`, `33.3%`, `0%`).
pub fn percent(value: u32, total: u32) -> String {
    if total == 0 {
        return "–".to_string();
    }
    let p = f64::from(value) * 100.0 / f64::from(total);
    if (p - p.round()).abs() < 0.05 {
        format!("{}%", p.round())
    } else {
        format!("{p:.1}%")
    }
}

/// Layout of a bar chart in SVG user units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarLayout {
    pub width: f64,
    pub label_width: f64,
    pub value_width: f64,
    pub row_height: f64,
    pub bar_height: f64,
}

impl Default for BarLayout {
    fn default() -> Self {
        BarLayout {
            width: 640.0,
            label_width: 200.0,
            value_width: 110.0,
            row_height: 26.0,
            bar_height: 16.0,
        }
    }
}

/// Where one bar goes.
#[derive(Debug, Clone, PartialEq)]
pub struct BarGeom {
    /// Top of the row.
    pub y: f64,
    /// Left and width of the filled part.
    pub x: f64,
    pub w: f64,
    /// Width of the track (the 100% extent).
    pub track: f64,
}

impl BarLayout {
    pub fn track_width(&self) -> f64 {
        (self.width - self.label_width - self.value_width).max(0.0)
    }

    pub fn height(&self, rows: usize) -> f64 {
        self.row_height * rows as f64
    }

    /// One geometry per bar, top to bottom; widths are proportional to the share.
    pub fn bars(&self, bars: &[Bar]) -> Vec<BarGeom> {
        let track = self.track_width();
        bars.iter()
            .enumerate()
            .map(|(i, b)| BarGeom {
                y: self.row_height * i as f64,
                x: self.label_width,
                w: track * b.share(),
                track,
            })
            .collect()
    }
}

/// Shortens a label to `max` characters with an ellipsis (the full label stays in a tooltip).
pub fn clip_label(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// Horizontal bars with a label on the left and `NN% (value/total)` on the right. (No SVG
/// `<title>` tooltips: Leptos' `view!` creates `title` in the HTML namespace.)
#[component]
pub fn BarChart(
    /// Bars, top to bottom.
    bars: Vec<Bar>,
    /// What the chart shows, for screen readers and as a tooltip.
    #[prop(into)]
    title: String,
    /// SVG id (optional, for tests and links).
    #[prop(into, optional)]
    id: String,
    /// Write only the percentage beside a bar (for rates published without their counts).
    #[prop(optional)]
    percent_only: bool,
) -> impl IntoView {
    let layout = BarLayout::default();
    let geoms = layout.bars(&bars);
    let height = layout.height(bars.len()).max(1.0);
    let rows = bars
        .into_iter()
        .zip(geoms)
        .map(|(b, g)| {
            let mid = g.y + layout.row_height / 2.0;
            let bar_y = g.y + (layout.row_height - layout.bar_height) / 2.0;
            let tip = format!("{}: {} of {} ({})", b.label, b.value, b.total, percent(b.value, b.total));
            view! {
                <g class="bar-row" aria-label=tip>
                    <text class="bar-label" x={layout.label_width - 8.0} y=mid dominant-baseline="middle" text-anchor="end">
                        {clip_label(&b.label, 26)}
                    </text>
                    <rect class="bar-track" x=g.x y=bar_y width=g.track height=layout.bar_height rx="2"/>
                    <rect class="bar-fill" x=g.x y=bar_y width=g.w height=layout.bar_height rx="2"/>
                    <text class="bar-value" x={g.x + g.track + 8.0} y=mid dominant-baseline="middle">
                        {if percent_only {
                            percent(b.value, b.total)
                        } else {
                            format!("{} ({}/{})", percent(b.value, b.total), b.value, b.total)
                        }}
                    </text>
                </g>
            }
        })
        .collect_view();
    view! {
        <svg class="chart bar-chart" id=id role="img" aria-label=title
             viewBox=format!("0 0 {} {}", layout.width, height)
             style=format!("max-width:{}px", layout.width)>
            {rows}
        </svg>
    }
}

/// Verdict counts of a set of test methods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub pass: u32,
    pub fail: u32,
    pub error: u32,
    pub skip: u32,
}

impl StatusCounts {
    pub fn of(tests: &[TestOutcome]) -> Self {
        let mut c = StatusCounts::default();
        for t in tests {
            let n = match t.status {
                Status::Pass => &mut c.pass,
                Status::Fail => &mut c.fail,
                Status::Error => &mut c.error,
                Status::Skip => &mut c.skip,
            };
            *n = n.saturating_add(1);
        }
        c
    }

    pub fn total(&self) -> u32 {
        self.pass.saturating_add(self.fail).saturating_add(self.error).saturating_add(self.skip)
    }

    /// In the order the bar draws them.
    pub fn parts(&self) -> [(Status, u32); 4] {
        [
            (Status::Pass, self.pass),
            (Status::Fail, self.fail),
            (Status::Error, self.error),
            (Status::Skip, self.skip),
        ]
    }
}

/// One segment of a stacked bar, in units of `0..STACK_UNITS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub status: Status,
    pub count: u32,
    pub x: u32,
    pub w: u32,
}

/// Width of a stacked bar in SVG units (stretched to the element's width).
pub const STACK_UNITS: u32 = 1000;
/// Narrowest a non-empty segment may be, so a single failure among thousands stays visible.
pub const MIN_SEGMENT: u32 = 8;

/// Splits [`STACK_UNITS`] among the non-zero counts: proportional by largest remainder (the
/// widths add up to exactly `STACK_UNITS`), each at least [`MIN_SEGMENT`], taken from the widest.
pub fn stack_segments(counts: &StatusCounts) -> Vec<Segment> {
    let total = u64::from(counts.total());
    if total == 0 {
        return Vec::new();
    }
    let units = u64::from(STACK_UNITS);
    let parts: Vec<(Status, u32)> = counts.parts().into_iter().filter(|(_, n)| *n > 0).collect();
    let mut widths: Vec<u64> = parts.iter().map(|(_, n)| u64::from(*n) * units / total).collect();
    let mut left = units - widths.iter().sum::<u64>();
    // Largest remainders first; ties go to the earlier segment.
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(u64::from(parts[i].1) * units % total));
    for &i in order.iter().cycle().take(parts.len() * 2) {
        if left == 0 {
            break;
        }
        widths[i] += 1;
        left -= 1;
    }
    let min = u64::from(MIN_SEGMENT);
    for i in 0..widths.len() {
        while widths[i] < min {
            let Some(widest) = (0..widths.len()).max_by_key(|&j| widths[j]) else { break };
            if widths[widest] <= min {
                break;
            }
            widths[widest] -= 1;
            widths[i] += 1;
        }
    }
    let mut x = 0u32;
    parts
        .into_iter()
        .zip(widths)
        .map(|((status, count), w)| {
            let w = u32::try_from(w).unwrap_or(STACK_UNITS);
            let seg = Segment { status, count, x, w };
            x = x.saturating_add(w);
            seg
        })
        .collect()
}

/// A one-line bar of pass / fail / error / skip with a text legend underneath.
#[component]
pub fn StackedBar(
    counts: StatusCounts,
    /// Element id of the wrapper (optional).
    #[prop(into, optional)]
    id: String,
) -> impl IntoView {
    let total = counts.total();
    let segs = stack_segments(&counts)
        .into_iter()
        .map(|s| {
            let name = s.status.as_str();
            view! {
                // A tooltip, not an ARIA name: the chart is one image (`role="img"`) named as a whole.
                <rect class=format!("seg seg-{name}") x=s.x y="0" width=s.w height="10">
                    <title>{format!("{}: {} of {}", name, s.count, total)}</title>
                </rect>
            }
        })
        .collect_view();
    let label = counts
        .parts()
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {}", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    let legend = counts
        .parts()
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| {
            let name = s.as_str();
            view! {
                <span class="legend-item">
                    <span class=format!("swatch seg-{name}")></span>
                    {format!("{n} {name}")}
                </span>
            }
        })
        .collect_view();
    view! {
        <div class="stacked" id=id>
            <svg class="chart stacked-bar" role="img" aria-label=format!("verdicts: {label}")
                 viewBox=format!("0 0 {STACK_UNITS} 10") preserveAspectRatio="none">
                <rect class="bar-track" x="0" y="0" width=STACK_UNITS height="10"/>
                {segs}
            </svg>
            <div class="legend">{legend}</div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pass: u32, fail: u32, error: u32, skip: u32) -> StatusCounts {
        StatusCounts { pass, fail, error, skip }
    }

    #[test]
    fn segments_fill_exactly_and_in_order() {
        for c in [
            counts(1, 1, 1, 0),
            counts(5, 2, 1, 0),
            counts(0, 0, 7, 0),
            counts(631, 0, 0, 0),
            counts(3, 3, 3, 3),
        ] {
            let segs = stack_segments(&c);
            assert_eq!(segs.iter().map(|s| s.w).sum::<u32>(), STACK_UNITS, "{c:?}");
            let mut x = 0;
            for s in &segs {
                assert_eq!(s.x, x);
                assert!(s.count > 0);
                x += s.w;
            }
        }
        let segs = stack_segments(&counts(1, 1, 1, 0));
        assert_eq!(segs.iter().map(|s| s.w).collect::<Vec<_>>(), vec![334, 333, 333]);
        assert_eq!(
            segs.iter().map(|s| s.status).collect::<Vec<_>>(),
            vec![Status::Pass, Status::Fail, Status::Error]
        );
        let segs = stack_segments(&counts(5, 2, 1, 0));
        assert_eq!(segs.iter().map(|s| s.w).collect::<Vec<_>>(), vec![625, 250, 125]);
        assert!(stack_segments(&counts(0, 0, 0, 0)).is_empty());
    }

    #[test]
    fn a_single_failure_among_many_stays_visible() {
        let segs = stack_segments(&counts(10_000, 1, 0, 0));
        assert_eq!(segs[1].w, MIN_SEGMENT);
        assert_eq!(segs[0].w, STACK_UNITS - MIN_SEGMENT);
    }

    #[test]
    fn bar_geometry_is_proportional() {
        let layout = BarLayout::default();
        let bars = vec![
            Bar::new("a", 1, 4),
            Bar::new("b", 4, 4),
            Bar::new("empty", 0, 0),
            Bar::new("odd", 9, 3),
        ];
        let g = layout.bars(&bars);
        let track = layout.width - layout.label_width - layout.value_width;
        assert_eq!(g[0].w, track / 4.0);
        assert_eq!(g[1].w, track);
        assert_eq!(g[2].w, 0.0);
        // More than the total is clamped to the track.
        assert_eq!(g[3].w, track);
        assert_eq!(g[1].y, layout.row_height);
        assert_eq!(layout.height(4), layout.row_height * 4.0);
    }

    #[test]
    fn percentages_and_labels() {
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(2, 8), "25%");
        assert_eq!(percent(0, 5), "0%");
        assert_eq!(percent(7, 7), "100%");
        assert_eq!(percent(1, 0), "–");
        assert_eq!(clip_label("short", 10), "short");
        assert_eq!(clip_label("add-log-parameter-post-entry", 10), "add-log-p…");
    }
}
