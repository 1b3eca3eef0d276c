//! What the rules keep while a game is replayed: the first position where
//! a claim or an automatic draw held, and at how many plies it held, so that
//! its FEN and SAN are written only when it becomes a finding (most claims
//! are excused by a draw at the end).

use shakmaty::{Chess, Move, Position};

use crate::finding::{Detail, Finding, Kind, Outcome, Spot, Via};

/// The first position where something held, kept so that its FEN and SAN
/// are only written when it becomes a finding (most claims are excused by
/// a draw at the end).
pub(crate) struct First {
    /// The ply.
    pub(crate) ply: u32,
    /// The position there.
    pub(crate) pos: Chess,
    /// The move to name, if any.
    pub(crate) mv: Option<Move>,
}

impl First {
    pub(crate) fn spot(&self) -> Spot {
        match self.mv {
            Some(m) => Spot::with_move(&self.pos, m),
            None => Spot::of(&self.pos),
        }
    }
}

/// The first ply at which a missed claim held, how many plies it held at,
/// and the last two of them (those the final draw may excuse).
#[derive(Default)]
pub(crate) struct ClaimTrack {
    first: Option<(First, Via)>,
    count: u32,
    last: [Option<u32>; 2],
}

impl ClaimTrack {
    /// A claim held at `ply`; `announce` gives the announcing move (9.2a /
    /// 9.3a), asked only at the first.
    pub(crate) fn hit(
        &mut self,
        ply: u32,
        pos: &Chess,
        via: Via,
        announce: impl FnOnce() -> Option<Move>,
    ) {
        if self.first.is_none() {
            let mv = match via {
                Via::Announced => announce(),
                Via::Occurred => None,
            };
            let pos = pos.clone();
            self.first = Some((First { ply, pos, mv }, via));
        }
        self.count += 1;
        self.last = [self.last[1], Some(ply)];
    }

    /// SPEC: "A claim that could be made at Pi was missed unless the game
    /// ended drawn at Pi or at Pi+1".
    pub(crate) fn finding(
        &self,
        kind: Kind,
        n: u32,
        excused: bool,
        result: &[u8],
    ) -> Option<Finding> {
        let (first, via) = self.first.as_ref()?;
        let (ply, side, via) = (first.ply, first.pos.turn(), *via);
        let mut count = self.count;
        if excused {
            let late = self
                .last
                .iter()
                .flatten()
                .filter(|&&p| u64::from(p) + 1 >= u64::from(n))
                .count() as u32;
            count -= late;
            if count == 0 {
                return None;
            }
        }
        Some(Finding {
            kind,
            ply,
            side,
            occurrences: count,
            detail: Detail::Missed {
                outcome: Outcome::for_color(side, result),
                via,
            },
            at: first.spot(),
        })
    }
}

/// The first ply at which an automatic draw held, and at how many.
#[derive(Default)]
pub(crate) struct DrawTrack {
    pub(crate) first: Option<First>,
    pub(crate) count: u32,
}

impl DrawTrack {
    pub(crate) fn hit(&mut self, ply: u32, pos: &Chess) {
        if self.first.is_none() {
            let pos = pos.clone();
            self.first = Some(First { ply, pos, mv: None });
        }
        self.count += 1;
    }

    /// A finding when moves were played after the game ended there, or the
    /// result is not a draw.
    pub(crate) fn finding(&self, kind: Kind, n: u32, valid: bool, drawn: bool) -> Option<Finding> {
        let first = self.first.as_ref()?;
        (!valid || first.ply < n || !drawn).then(|| Finding {
            kind,
            ply: first.ply,
            side: first.pos.turn(),
            occurrences: self.count,
            detail: Detail::None,
            at: first.spot(),
        })
    }
}

/// The move to name for a claim announced from a position: the move played
/// there when it is one that announces it (the player wrote it and played
/// on), else the first of `candidates`.
pub(crate) fn announcing_move(
    played: Option<Move>,
    candidates: impl IntoIterator<Item = Move>,
) -> Option<Move> {
    let mut first = None;
    for m in candidates {
        if Some(m) == played {
            return Some(m);
        }
        first = first.or(Some(m));
    }
    first
}
