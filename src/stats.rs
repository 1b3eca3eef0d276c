//! Counts that merge in any order: per chunk, per file, per run.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::audit::{GameReport, Status};
use crate::finding::{Detail, Outcome};
use crate::kind::{ByKind, Kind, Severity};
use crate::laws::{ByEdition, Edition};
use crate::rules::unwinnable::Proof;
use crate::site::{Rule, Site};

/// Counts of one file or of a whole run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games read, every game counted.
    pub games: u64,
    /// Games replayed to their last move.
    pub analysed: u64,
    /// Games with an `invalid_game` finding (Art. 3, 4).
    pub invalid: u64,
    /// Games not analysed: of other variants, or text that is no game
    /// (`not_pgn`).
    pub skipped: u64,
    /// Of the skipped, blocks of text that are no game: no tag pair, no
    /// move and no result token ([`Status::NotPgn`]).
    pub not_pgn: u64,
    /// Legal mainline half-moves replayed.
    pub plies: u64,
    /// Uncompressed bytes read.
    pub bytes: u64,
    /// Games with at least one finding.
    pub flagged: u64,
    /// Games with a comment left open: it ran over tag sections or to the
    /// end of the input.
    pub open_comments: u64,
    /// Tag sections read as part of such comments: games hidden in them.
    pub hidden_games: u64,
    /// Games with a finding of each kind.
    pub kind_games: ByKind<u64>,
    /// Games by the severity of their most serious finding (the gate's
    /// `error` and `warning`).
    pub severity_games: BySeverity,
    /// Missed claims of each kind whose claimant then lost.
    pub missed_then_lost: ByKind<u64>,
    /// Games judged by each edition (skipped games excluded).
    pub editions: ByEdition<u64>,
    /// Per kind the engine proves ([`crate::kind::KindInfo::proven`]):
    /// findings by proof, in [`PROOFS`] order.
    pub proofs: ByKind<[u64; 3]>,
    /// Per kind the engine is asked ([`crate::kind::KindInfo::undecided`]):
    /// games where it answered `Unknown`.
    pub undecided: ByKind<u64>,
    /// Per site with a rulebook (SPEC "Site rules"), in [`Site::ALL`]
    /// order: the games its rules judged.
    pub sites: [SiteCounts; Site::ALL.len()],
}

/// Games by the severity of their most serious finding, in
/// [`Severity::ALL`] order; written as `{"error": N, "warning": N, "note":
/// N}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SeverityJson", into = "SeverityJson")]
pub struct BySeverity(pub [u64; 3]);

impl BySeverity {
    /// Games whose most serious finding is `s` or more serious.
    pub fn at_least(&self, s: Severity) -> u64 {
        self.0[..=s as usize].iter().sum()
    }
}

/// [`BySeverity`] as the summary JSON writes it.
#[derive(Serialize, Deserialize, Default)]
struct SeverityJson {
    error: u64,
    warning: u64,
    note: u64,
}

impl From<SeverityJson> for BySeverity {
    fn from(j: SeverityJson) -> BySeverity {
        BySeverity([j.error, j.warning, j.note])
    }
}

impl From<BySeverity> for SeverityJson {
    fn from(b: BySeverity) -> SeverityJson {
        let [error, warning, note] = b.0;
        SeverityJson {
            error,
            warning,
            note,
        }
    }
}

/// The counts of the games one site's rules judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteCounts {
    /// Games judged by the site's rules (analysed or invalid).
    pub games: u64,
    /// Games whose record names a ruling that was checked.
    pub rulings_checked: u64,
    /// Of those, the rulings the game supports.
    pub rulings_supported: u64,
    /// Games with a `site_rule` finding of each rule, in [`crate::site::Rule::ALL`]
    /// order.
    #[serde(with = "by_rule")]
    pub rules: [u64; Rule::ALL.len()],
    /// Games lost on time that the site and the Laws score differently
    /// (`drawn_flag` or `unwinnable_flag`).
    pub flags_scored_otherwise: u64,
}

impl SiteCounts {
    /// Counts a game its site's rules judged.
    pub fn add(&mut self, report: &GameReport) {
        self.games += 1;
        if let Some(supported) = report.ruling {
            self.rulings_checked += 1;
            self.rulings_supported += u64::from(supported);
        }
        let mut rules = [false; Rule::ALL.len()];
        let mut flags = false;
        for f in &report.findings {
            match f.detail {
                Detail::SiteRule { rule, .. } => rules[rule as usize] = true,
                Detail::DrawnFlag { .. } | Detail::Unwinnable { .. } => flags = true,
                _ => {}
            }
        }
        for (n, hit) in self.rules.iter_mut().zip(rules) {
            *n += u64::from(hit);
        }
        self.flags_scored_otherwise += u64::from(flags);
    }

    /// Adds `o`'s counts to these.
    pub fn merge(&mut self, o: &SiteCounts) {
        self.games += o.games;
        self.rulings_checked += o.rulings_checked;
        self.rulings_supported += o.rulings_supported;
        for (a, b) in self.rules.iter_mut().zip(o.rules) {
            *a += b;
        }
        self.flags_scored_otherwise += o.flags_scored_otherwise;
    }
}

/// `rules` as an object keyed by the rule's name.
mod by_rule {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rules::site::Rule;

    pub fn serialize<S: Serializer>(v: &[u64; Rule::ALL.len()], s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(Rule::ALL.iter().map(|r| (r.name(), v[*r as usize])))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[u64; Rule::ALL.len()], D::Error> {
        use serde::de::Error as _;
        let map = BTreeMap::<String, u64>::deserialize(d)?;
        let mut out = [0; Rule::ALL.len()];
        for (name, n) in map {
            let r = Rule::from_name(&name)
                .ok_or_else(|| D::Error::custom(format!("unknown site rule {name:?}")))?;
            out[r as usize] = n;
        }
        Ok(out)
    }
}

/// A site's entry in the summary JSON.
#[derive(Serialize, Deserialize)]
struct SiteJson {
    site: String,
    #[serde(flatten)]
    counts: SiteCounts,
}

/// The proofs, in the order [`Stats::proofs`] counts them.
pub const PROOFS: [Proof; 3] = [Proof::Material, Proof::Blocked, Proof::Search];

fn proof_index(p: Proof) -> usize {
    PROOFS.iter().position(|&q| q == p).unwrap_or(0)
}

impl Stats {
    /// Counts one audited game.
    pub fn add_game(&mut self, report: &GameReport) {
        self.games += 1;
        if report.swallowed > 0 || report.unterminated {
            self.open_comments += 1;
            self.hidden_games += u64::from(report.swallowed);
        }
        match report.status {
            Status::Analysed => self.analysed += 1,
            Status::Invalid => self.invalid += 1,
            Status::Skipped => {
                self.skipped += 1;
                return;
            }
            Status::NotPgn => {
                self.skipped += 1;
                self.not_pgn += 1;
                return;
            }
        }
        self.plies += u64::from(report.plies);
        if let Some(worst) = report.findings.iter().map(|f| report.severity(f)).min() {
            self.flagged += 1;
            self.severity_games.0[worst as usize] += 1;
        }
        if let Some(site) = report.site {
            self.sites[site as usize].add(report);
        }
        self.editions[report.edition] += 1;
        for (k, &open) in report.undecided.iter() {
            self.undecided[k] += u64::from(open);
        }
        let mut seen = ByKind::<bool>::default();
        for f in &report.findings {
            match f.detail {
                Detail::Dead { proof } | Detail::Unwinnable { proof, .. } => {
                    self.proofs[f.kind][proof_index(proof)] += 1;
                }
                _ => {}
            }
            // Games, not findings: a game may break two of its site's rules.
            if !std::mem::replace(&mut seen[f.kind], true) {
                self.kind_games[f.kind] += 1;
            }
            if let Detail::Missed {
                outcome: Outcome::Lost,
                ..
            } = f.detail
            {
                self.missed_then_lost[f.kind] += 1;
            }
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.analysed += other.analysed;
        self.invalid += other.invalid;
        self.skipped += other.skipped;
        self.not_pgn += other.not_pgn;
        self.plies += other.plies;
        self.bytes += other.bytes;
        self.flagged += other.flagged;
        self.open_comments += other.open_comments;
        self.hidden_games += other.hidden_games;
        self.kind_games += &other.kind_games;
        for (a, b) in self.severity_games.0.iter_mut().zip(other.severity_games.0) {
            *a += b;
        }
        self.missed_then_lost += &other.missed_then_lost;
        self.editions += &other.editions;
        self.undecided += &other.undecided;
        for (a, b) in self.sites.iter_mut().zip(&other.sites) {
            a.merge(b);
        }
        for (mine, theirs) in self.proofs.0.iter_mut().zip(other.proofs.0.iter()) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// games read = analysed + invalid + skipped
    pub fn balanced(&self) -> bool {
        self.games == self.analysed + self.invalid + self.skipped
    }

    /// The counts as the summary JSON writes them.
    pub fn to_json(&self) -> StatsJson {
        StatsJson {
            games_read: self.games,
            analysed: self.analysed,
            invalid: self.invalid,
            skipped: self.skipped,
            not_pgn: self.not_pgn,
            accounted: self.balanced(),
            plies: self.plies,
            bytes: self.bytes,
            flagged: self.flagged,
            severities: self.severity_games,
            open_comments: self.open_comments,
            hidden_games: self.hidden_games,
            kinds: Kind::ALL
                .iter()
                .map(|&k| KindJson {
                    kind: k.name(),
                    games: self.kind_games[k],
                    missed_then_lost: k.is_missed_claim().then_some(self.missed_then_lost[k]),
                    proven_by: k.info().proven.then(|| {
                        PROOFS
                            .iter()
                            .zip(self.proofs[k])
                            .map(|(p, n)| (p.as_str(), n))
                            .collect()
                    }),
                    unknown: k.info().undecided.then_some(self.undecided[k]),
                })
                .collect(),
            editions: self.editions.iter().map(|(e, &n)| (e.name(), n)).collect(),
            sites: Site::ALL
                .iter()
                .map(|&s| SiteJson {
                    site: s.name().to_string(),
                    counts: self.sites[s as usize],
                })
                .collect(),
        }
    }
}

/// Written as the summary JSON writes counts ([`Stats::to_json`]).
impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// Read back from the summary JSON's counts (a run's `total` or one of its
/// `inputs`), so that summaries merge in Rust: `accounted` is recomputed, a
/// kind or edition this version does not know is refused.
impl<'de> Deserialize<'de> for Stats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Stats, D::Error> {
        use serde::de::Error as _;
        let j = StatsIn::deserialize(d)?;
        let mut st = Stats {
            games: j.games_read,
            analysed: j.analysed,
            invalid: j.invalid,
            skipped: j.skipped,
            not_pgn: j.not_pgn,
            plies: j.plies,
            bytes: j.bytes,
            flagged: j.flagged,
            severity_games: j.severities,
            open_comments: j.open_comments,
            hidden_games: j.hidden_games,
            ..Stats::default()
        };
        for k in j.kinds {
            let kind = Kind::from_name(&k.kind)
                .ok_or_else(|| D::Error::custom(format!("unknown kind {:?}", k.kind)))?;
            st.kind_games[kind] = k.games;
            st.missed_then_lost[kind] = k.missed_then_lost.unwrap_or(0);
            st.undecided[kind] = k.unknown.unwrap_or(0);
            for (name, n) in k.proven_by.unwrap_or_default() {
                let i = PROOFS
                    .iter()
                    .position(|p| p.as_str() == name)
                    .ok_or_else(|| D::Error::custom(format!("unknown proof {name:?}")))?;
                st.proofs[kind][i] = n;
            }
        }
        for (name, n) in j.editions {
            let e = Edition::ALL
                .into_iter()
                .find(|e| e.name() == name)
                .ok_or_else(|| D::Error::custom(format!("unknown edition {name:?}")))?;
            st.editions[e] = n;
        }
        for s in j.sites {
            let site = Site::from_name(&s.site)
                .ok_or_else(|| D::Error::custom(format!("unknown site {:?}", s.site)))?;
            st.sites[site as usize] = s.counts;
        }
        Ok(st)
    }
}

/// The summary JSON's counts as read back (see [`StatsJson`]).
#[derive(Deserialize)]
struct StatsIn {
    games_read: u64,
    analysed: u64,
    invalid: u64,
    skipped: u64,
    #[serde(default)]
    not_pgn: u64,
    plies: u64,
    bytes: u64,
    flagged: u64,
    #[serde(default)]
    severities: BySeverity,
    #[serde(default)]
    open_comments: u64,
    #[serde(default)]
    hidden_games: u64,
    kinds: Vec<KindIn>,
    editions: std::collections::BTreeMap<String, u64>,
    #[serde(default)]
    sites: Vec<SiteJson>,
}

#[derive(Deserialize)]
struct KindIn {
    kind: String,
    games: u64,
    missed_then_lost: Option<u64>,
    proven_by: Option<std::collections::BTreeMap<String, u64>>,
    unknown: Option<u64>,
}

/// [`Stats`] as the summary JSON writes them.
#[derive(Serialize)]
pub struct StatsJson {
    /// Games read, every game counted.
    pub games_read: u64,
    /// Games replayed to their last move.
    pub analysed: u64,
    /// Games with an `invalid_game` finding.
    pub invalid: u64,
    /// Games not analysed: of other variants, or text that is no game.
    pub skipped: u64,
    /// Of the skipped, blocks of text that are no game (no tag pair, no
    /// move, no result token).
    pub not_pgn: u64,
    /// games_read == analysed + invalid + skipped
    pub accounted: bool,
    /// Legal mainline half-moves replayed.
    pub plies: u64,
    /// Uncompressed bytes read.
    pub bytes: u64,
    /// Games with at least one finding.
    pub flagged: u64,
    /// Games by the severity of their most serious finding.
    pub severities: BySeverity,
    /// Games with a comment left open (over tag sections or to the end).
    pub open_comments: u64,
    /// Tag sections inside such comments: games they hide.
    pub hidden_games: u64,
    /// One entry per kind, in [`Kind::ALL`] order.
    pub kinds: Vec<KindJson>,
    /// Games judged by each edition, by its name.
    pub editions: std::collections::BTreeMap<&'static str, u64>,
    /// Per site with a rulebook, the games its rules judged.
    sites: Vec<SiteJson>,
}

/// The counts of one kind in the summary JSON.
#[derive(Serialize)]
pub struct KindJson {
    /// The kind's name.
    pub kind: &'static str,
    /// Games with a finding of this kind.
    pub games: u64,
    /// Missed claims only: games where the claimant then lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missed_then_lost: Option<u64>,
    /// Dead positions and unwinnable flags: findings by how they were proven.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven_by: Option<std::collections::BTreeMap<&'static str, u64>>,
    /// Dead positions and unwinnable flags: games where the engine could not
    /// decide (`Unknown`) within its budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<u64>,
}
