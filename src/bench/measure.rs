//! Summary statistics for benchmark samples, and the spread of a figure.

use serde::{Deserialize, Serialize};

/// Arithmetic mean; 0 for no samples.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Population standard deviation; 0 for fewer than two samples.
pub fn stddev(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// The `p`-th percentile (0-100), the project's one quantile ([`crate::metrics::quantile`]);
/// 0 for no samples.
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    crate::metrics::quantile_of(xs, p / 100.0)
}

/// The median (50th percentile).
pub fn median(xs: &[f64]) -> f64 {
    percentile(xs, 50.0)
}

/// A figure and how far it moves: `low` and `high` bound where 90% of its resamples fell
/// (see [`bootstrap`]), so a target whose threshold lies between them is within noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Spread {
    /// A figure measured once, with no spread known.
    pub fn exact(value: f64) -> Self {
        Self {
            value,
            low: value,
            high: value,
        }
    }

    /// The same spread through a monotonic increasing `f` (a cost from a ratio).
    pub fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Self {
            value: f(self.value),
            low: f(self.low),
            high: f(self.high),
        }
    }

    /// The largest of several figures: each bound the largest of theirs.
    pub fn worst(spreads: impl IntoIterator<Item = Spread>) -> Option<Spread> {
        spreads.into_iter().reduce(|a, b| Spread {
            value: a.value.max(b.value),
            low: a.low.max(b.low),
            high: a.high.max(b.high),
        })
    }

    /// `0.940x (0.921-0.958)`: the value and its spread with `digits` decimals.
    pub fn show(&self, digits: usize, unit: &str) -> String {
        format!(
            "{:.digits$}{unit} ({:.digits$}-{:.digits$})",
            self.value, self.low, self.high
        )
    }
}

/// Resamples drawn by [`bootstrap`].
pub const RESAMPLES: usize = 400;

/// The spread of `statistic` over `groups` of samples: the statistic of all of them, and
/// the 5th and 95th percentiles of it over [`RESAMPLES`] resamples of the groups, drawn
/// with replacement by a seeded generator (the same samples give the same spread), widened
/// to hold the figure itself where a skewed statistic puts it outside them. A group
/// is what was measured together (an A block and the B block beside it), so a moment of
/// the machine that hit one pair stays in one group.
pub fn bootstrap<G>(groups: &[G], statistic: impl Fn(&[&G]) -> f64) -> Spread {
    let all: Vec<&G> = groups.iter().collect();
    let value = statistic(&all);
    if groups.len() < 2 {
        return Spread::exact(value);
    }
    let mut rng = oorandom::Rand32::new(0x5eed);
    let n = u32::try_from(groups.len()).unwrap_or(u32::MAX);
    let mut stats: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let drawn: Vec<&G> = (0..groups.len())
                .map(|_| &groups[rng.rand_range(0..n) as usize])
                .collect();
            statistic(&drawn)
        })
        .filter(|s| s.is_finite())
        .collect();
    stats.sort_by(f64::total_cmp);
    Spread {
        value,
        low: percentile(&stats, 5.0).min(value),
        high: percentile(&stats, 95.0).max(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_a_known_sample() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&xs), 5.0);
        assert_eq!(stddev(&xs), 2.0);
        // Definition 8: the rank (8 + 1/3) / 2 + 1/3 = 4.5 lies halfway from 4 to 5.
        assert_eq!(median(&xs), 4.5);
        assert_eq!(percentile(&xs, 100.0), 9.0);
        assert_eq!(percentile(&xs, 99.0), 9.0);
        assert_eq!(percentile(&xs, 1.0), 2.0);
        assert_eq!((mean(&[]), stddev(&[1.0]), median(&[])), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_bootstrap_spread_holds_the_figure_and_narrows_with_agreeing_groups() {
        let mean_of = |gs: &[&Vec<f64>]| {
            mean(
                &gs.iter()
                    .flat_map(|g| g.iter().copied())
                    .collect::<Vec<_>>(),
            )
        };
        // Groups that agree: no spread at all.
        let same = vec![vec![1.0, 1.0]; 10];
        assert_eq!(bootstrap(&same, mean_of), Spread::exact(1.0));
        // Groups from 0 to 9: the mean is 4.5, and its resamples spread around it.
        let groups: Vec<Vec<f64>> = (0..10).map(|i| vec![f64::from(i)]).collect();
        let s = bootstrap(&groups, mean_of);
        assert_eq!(s.value, 4.5);
        assert!(s.low < 4.5 && s.high > 4.5, "{s:?}");
        assert!(s.low > 2.0 && s.high < 7.0, "{s:?}");
        // Seeded: the same groups give the same spread.
        assert_eq!(s, bootstrap(&groups, mean_of));
        assert_eq!(
            s.show(2, "x"),
            format!("4.50x ({:.2}-{:.2})", s.low, s.high)
        );
        let worst = Spread::worst([Spread::exact(1.0), s]).unwrap();
        assert_eq!(
            (worst.value, worst.low, worst.high),
            (4.5, s.low.max(1.0), s.high)
        );
    }
}
