//! `san::resolve` must answer exactly as shakmaty's `San::to_move` (the
//! SPEC's definition): the same move, or the same error. Compared on every
//! position of the sample games and of every edge-case file, for the SAN of
//! every legal move and for altered forms of it (capture mark toggled, from
//! file or rank added or dropped, promotion changed, target moved).
//! The edge-case files need the shared corpus (`../shared/` or
//! `PGN_ARBITER_SHARED`): without it that part is skipped with a `SKIPPED`
//! line (see `util::Needs`), or fails when `PGN_ARBITER_REQUIRE_ALL` is set.

use crate::util::{self, Needs};

use pgn_arbiter::parse::Mainline;
use pgn_arbiter::san::resolve;
use pgn_arbiter::split::Splitter;
use shakmaty::{fen::Fen, san::San, CastlingMode, Chess, File, Position, Rank, Role};

fn variants(san: San, out: &mut Vec<San>) {
    out.push(san);
    if let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    {
        let with = |file, rank, capture, to, promotion| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        };
        out.push(with(file, rank, !capture, to, promotion));
        out.push(with(None, None, capture, to, promotion));
        out.push(with(None, None, !capture, to, promotion));
        for f in [File::A, File::D, File::E, File::H] {
            out.push(with(Some(f), rank, capture, to, promotion));
        }
        for r in [Rank::First, Rank::Second, Rank::Seventh] {
            out.push(with(file, Some(r), capture, to, promotion));
        }
        for p in [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
            Some(Role::Pawn),
        ] {
            out.push(with(file, rank, capture, to, p));
        }
        for delta in [-9, -8, -1, 1, 8, 16, -16] {
            if let Some(t) = to.offset(delta) {
                out.push(with(file, rank, capture, t, promotion));
            }
        }
        for r in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            out.push(San::Normal {
                role: r,
                file,
                rank,
                capture,
                to,
                promotion,
            });
        }
    }
}

/// Replays every game of `bytes` with shakmaty and compares at every ply.
fn compare_file(bytes: &[u8], compared: &mut u64) {
    let mut line = Mainline::default();
    let mut sans = Vec::new();
    for game in Splitter::new(bytes) {
        let chess960 = game
            .tag("Variant")
            .is_some_and(|v| String::from_utf8_lossy(v).contains("960"));
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let mut pos = match game.tag("FEN") {
            None => Chess::default(),
            Some(f) => match Fen::from_ascii(f)
                .ok()
                .and_then(|f| f.into_position(mode).ok())
            {
                Some(p) => p,
                None => continue,
            },
        };
        line.read(game.movetext);
        for written in &line.sans {
            sans.clear();
            variants(written.san, &mut sans);
            for m in pos.legal_moves() {
                variants(San::from_move(&pos, m), &mut sans);
            }
            for san in &sans {
                assert_eq!(
                    resolve(&pos, *san),
                    san.to_move(&pos),
                    "{san} in {}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                *compared += 1;
            }
            match written.san.to_move(&pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => break,
            }
        }
    }
}

#[test]
fn resolve_answers_as_shakmaty_to_move() {
    let root = util::root();
    let mut compared = 0;
    let sample = std::fs::read(root.join("data/lichess-2000.pgn")).unwrap();
    // a part of the sample is enough for the many variants per position
    compare_file(&sample[..sample.len() / 4], &mut compared);
    let zst = std::fs::read(root.join("data/twic-2000.pgn.zst")).unwrap();
    let twic = zstd::decode_all(&zst[..]).unwrap();
    compare_file(&twic[..twic.len() / 8], &mut compared);
    eprintln!("{compared} SANs compared in the bundled sample");
    assert!(compared > 1_000_000, "{compared}");
    if Needs::check("the edge-case files")
        .shared("data/edge")
        .met()
    {
        let edge = util::shared().join("data/edge");
        for entry in std::fs::read_dir(&edge).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|x| x == "pgn") {
                compare_file(&std::fs::read(&p).unwrap(), &mut compared);
            }
        }
    }
    eprintln!("{compared} SANs compared");
    assert!(compared > 1_000_000, "{compared}");
}
