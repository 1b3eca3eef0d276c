//! A merge of parts against one run over the same games.

use super::super::fact::{FactFinding, DETAIL_NONE};
use super::super::merge::AggregateMerge;
use super::super::model::Correction;
use super::super::packed::unpacked;
use super::*;
use crate::identity::Identity;
use crate::kind::Kind;

/// Game `n` of `file`, whose moves are `moves` (0: none) and result
/// `result`: a fact with a finding of its own, an example row, and a
/// correction where the Laws score it otherwise.
fn game(file: &str, n: u64, moves: u64, result: u8) -> (u64, Key, Fact<'static>) {
    let key = Key {
        mainline: moves,
        long: true,
        result,
        id: Identity::default(),
    };
    let kind = Kind::ALL[(moves % 3) as usize * 3];
    let names: [&'static [u8]; 3] = [b"Adams, Michael", b"ADAMS,Michael", b"Carlsen, M"];
    let row = ExampleRow {
        file: file.into(),
        game: n + 1,
        what: format!("game {n}"),
        ..ExampleRow::default()
    };
    let fact = Fact {
        analysed: true,
        plies: 40 + moves as u32,
        year: 2000 + (n % 3) as u16,
        band: 1200,
        result,
        laws: if moves == 4 { 3 } else { 0 },
        white: Some(names[(n % 3) as usize]),
        black: Some(b"Kasparov, Garry"),
        event: Some(if n.is_multiple_of(2) { b"Open" } else { b"Cup" }),
        findings: vec![FactFinding {
            kind,
            white: n.is_multiple_of(2),
            detail: if kind.is_missed_claim() {
                1
            } else {
                DETAIL_NONE
            },
            ply: moves as u32,
            occurrences: 2,
        }],
        examples: vec![(0, row)],
        correction: (moves == 4 && result != 3).then(|| Correction {
            file: file.into(),
            game: n + 1,
            recorded: RESULTS_FOR_TEST[usize::from(result)].into(),
            laws: "1/2-1/2".into(),
            ..Correction::default()
        }),
        ..Fact::default()
    };
    (n, key, fact)
}

const RESULTS_FOR_TEST: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

/// Games as (number, moves, result).
type GameList = [(u64, u64, u8)];

/// The aggregate of one run over `inputs` (file, games as
/// (number, moves, result)), in `mode`, counted at the end.
fn run(mode: &str, inputs: &[(&str, &GameList)]) -> Aggregate {
    run_counting(mode, inputs, false)
}

/// [`run`], counting the games as they come where `live`.
fn run_counting(mode: &str, inputs: &[(&str, &GameList)], live: bool) -> Aggregate {
    let mut t = Tally::new(mode);
    for (file, games) in inputs {
        t.seen.begin_input(file);
        for &(n, moves, result) in *games {
            let (n, key, fact) = game(file, n, moves, result);
            t.judged(n, key, &fact, live);
        }
    }
    t.aggregate(Vec::new(), None).unwrap()
}

#[test]
fn games_counted_as_they_come_count_as_games_counted_at_the_end() {
    // without a shared mainline the counts made as the games came stand;
    // with one, they are made again knowing the repeats (left out in
    // `once` and `exact`, counted in `all`)
    let unique: &GameList = &[(0, 1, 1), (1, 2, 3), (2, 0, 1), (3, 4, 2), (4, 5, 0)];
    let shared: &GameList = &[(0, 1, 1), (1, 2, 3), (2, 1, 2), (3, 4, 1), (4, 4, 1)];
    let not_a_repeat: &GameList = &[(0, 0, 1), (1, 0, 2), (2, 3, 1)];
    for mode in ["once", "all", "exact"] {
        let across: &[(&str, &GameList)] = &[("a.pgn", unique), ("b.pgn", &unique[..2])];
        for inputs in [
            &[("a.pgn", unique)],
            &[("a.pgn", shared)],
            &[("a.pgn", not_a_repeat)],
            across,
        ] {
            let live = run_counting(mode, inputs, true);
            assert_eq!(live, run(mode, inputs), "{mode} {inputs:?}");
        }
        let live = run_counting(mode, &[("a.pgn", shared)], true);
        let left_out = if mode == "all" { 0 } else { 2 };
        assert_eq!(live.duplicates.left_out, left_out, "{mode}");
        let counted: u64 = live.by["year"].values().map(|b| b.games).sum();
        assert_eq!(counted, 5 - left_out, "{mode}");
    }
}

#[test]
fn merged_parts_equal_one_run_with_copies_across_parts() {
    // a.pgn in three parts numbered as in the whole file, then b.pgn;
    // repeats within a part, across parts, across files, some with
    // another result, and copies of a game the Laws score otherwise
    let a1: &GameList = &[(0, 1, 1), (1, 2, 3), (2, 1, 1), (3, 4, 1)];
    let a2: &GameList = &[(4, 3, 2), (5, 2, 1), (6, 4, 1)];
    let a3: &GameList = &[(7, 4, 3), (8, 3, 2), (9, 5, 0), (10, 0, 1)];
    let b: &GameList = &[(0, 5, 0), (1, 1, 2), (2, 6, 1), (3, 0, 1)];
    for mode in ["once", "all", "exact"] {
        let parts = [("a.pgn", a1), ("a.pgn", a2), ("a.pgn", a3), ("b.pgn", b)];
        let mut merged = AggregateMerge::default();
        for p in parts {
            merged.add(&run(mode, &[p])).unwrap();
        }
        let merged = merged.finish().unwrap();
        let whole = run(mode, &[("a.pgn", &[a1, a2, a3].concat()), ("b.pgn", b)]);
        assert_eq!(merged, whole, "{mode}");
        assert_eq!(
            merged.duplicates.ids.len(),
            2,
            "the parts of a.pgn are one entry"
        );
        let d = &whole.duplicates;
        assert_eq!((d.games, d.results_differ), (7, 3), "{mode}");
        let left_out = if mode == "all" { 0 } else { 7 };
        assert_eq!(d.left_out, left_out, "{mode}");
        // the games counted: 15 judged, less the repeats left out
        let counted: u64 = whole.by["year"].values().map(|b| b.games).sum();
        assert_eq!(counted, 15 - left_out, "{mode}");
        // merging a merge again changes nothing
        let mut again = AggregateMerge::default();
        again.add(&merged).unwrap();
        assert_eq!(again.finish().unwrap(), whole, "{mode}");
    }
}

#[test]
fn aggregates_of_two_modes_do_not_merge() {
    let mut m = AggregateMerge::default();
    m.add(&run("once", &[("a.pgn", &[(0, 1, 1)])])).unwrap();
    let err = m.add(&run("all", &[("b.pgn", &[(0, 1, 1)])])).unwrap_err();
    assert!(err.contains("--duplicates all"), "{err}");
}

#[test]
fn games_spooled_to_a_file_count_as_games_held_in_memory() {
    let a: &GameList = &[(0, 1, 1), (1, 2, 3), (2, 1, 2), (3, 0, 1), (5, 7, 1)];
    let b: &GameList = &[(0, 2, 3), (1, 9, 0), (2, 7, 1)];
    let dir = tempfile::tempdir().unwrap();
    for mode in ["once", "all", "exact"] {
        let path = dir.path().join(format!("{mode}.ids"));
        let mut t = Tally::new(mode);
        t.seen
            .spool_to(super::super::spool::IdsWriter::create(&path).unwrap());
        for (file, games) in [("a.pgn", a), ("b.pgn", b)] {
            t.seen.begin_input(file);
            for &(n, moves, result) in games {
                let (n, key, fact) = game(file, n, moves, result);
                t.judged(n, key, &fact, false);
            }
        }
        let mut spooled = t.aggregate(Vec::new(), None).unwrap();
        assert!(spooled.duplicates.ids_beside, "{mode}");
        spooled.duplicates.ids = super::super::read_ids(&path).unwrap();
        spooled.duplicates.ids_beside = false;
        assert_eq!(spooled, run(mode, &[("a.pgn", a), ("b.pgn", b)]), "{mode}");
        assert!(spooled.duplicates.games > 0, "{mode}");
    }
}

#[test]
fn merged_parts_carry_the_example_rows_of_one_run() {
    // more findings of each kind than carry rows: each part's first ones
    // carry rows that one run's do not, and the merge drops them
    let games: Vec<(u64, u64, u8)> = (0..6 * EXAMPLE_CANDIDATES as u64)
        .map(|n| (n, n + 10, 1))
        .collect();
    let third = games.len() / 3;
    let parts = [
        &games[..third],
        &games[third..2 * third],
        &games[2 * third..],
    ];
    let mut merged = AggregateMerge::default();
    for p in parts {
        merged.add(&run("once", &[("a.pgn", p)])).unwrap();
    }
    let merged = merged.finish().unwrap();
    let whole = run("once", &[("a.pgn", &games)]);
    assert_eq!(merged, whole);
    let rows: usize = unpacked(&whole.duplicates.ids[0].games)
        .map(|g| g.fact.examples.len())
        .sum();
    assert_eq!(
        rows,
        3 * EXAMPLE_CANDIDATES as usize,
        "64 rows of each of 3 kinds"
    );
}

#[test]
fn parts_read_from_files_merge_as_parts_held_in_memory() {
    // each part numbered from its own first game, as a run over a part
    // numbers it, and moved on as the whole file numbers it: the games
    // beside each part's JSON, read while they are counted, count as the
    // games carried in it (`merged_parts_equal_one_run_with_copies_across_parts`
    // compares those with one run)
    let a1: &GameList = &[(0, 1, 1), (1, 2, 3), (2, 1, 1), (3, 4, 1)];
    let a2: &GameList = &[(0, 3, 2), (1, 2, 1), (2, 4, 1)];
    let a3: &GameList = &[(0, 4, 3), (1, 3, 2), (2, 5, 0), (3, 0, 1)];
    let dir = tempfile::tempdir().unwrap();
    for mode in ["once", "all", "exact"] {
        for lines in [0, 9] {
            let mut from_files = AggregateMerge::default();
            let mut in_memory = AggregateMerge::default();
            for (i, (part, games)) in [(a1, 0), (a2, 4), (a3, 7)].into_iter().enumerate() {
                let lines = lines * games;
                let path = dir.path().join(format!("{mode}-{lines}-{i}.json"));
                let name = path.to_str().unwrap();
                let mut a = run(mode, &[("a.pgn", part)]);
                let mut out = std::fs::File::create(&path).unwrap();
                super::super::write_aggregate(&mut out, name, &mut a).unwrap();
                drop(out);
                let shift = GameShift {
                    file: "a.pgn",
                    games,
                    lines,
                };
                from_files.add_file(name, Some(shift)).unwrap();
                a.shift_games(shift);
                in_memory.add(&a).unwrap();
            }
            let merged = from_files.finish().unwrap();
            assert_eq!(merged, in_memory.finish().unwrap(), "{mode} {lines}");
            assert!(merged.duplicates.games > 0, "{mode}: repeats across parts");
        }
    }
}
