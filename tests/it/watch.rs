//! `pgn-arbiter watch`: real games replayed move by move into a DGT-style
//! round folder (each board's file rewritten whole after each move, some
//! by rename, one caught half-written, a takeback, a board that appears
//! late, a combined `games.pgn` that lags a move behind), into a file that
//! games are appended to, and as a broadcast stream on stdin. Each time,
//! the events must be exactly those the audit's findings on the final
//! games imply: the claims of a game with its result left open (as many
//! plies as the audit counts, the first at its ply), where it ended by the
//! Laws, the findings that judge its written result; the near_* events as
//! an independent replay (shakmaty) counts them. Nothing is reported
//! twice, nothing for clean games.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pgn_arbiter::parse::{tag_text, MovetextMap};
use pgn_arbiter::split::Splitter;
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist128;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::util::{self, bin, json_lines, root, shared, text, Needs};

/// A game of the simulation: its tags (Event and Round its own, so that
/// each board is one game), its movetext cut after each move.
#[derive(Clone)]
struct Sim {
    round: String,
    /// Tag lines other than Event, Round, Result and GameURL, raw.
    tags: Vec<u8>,
    movetext: Vec<u8>,
    /// Where each mainline move's token ends in the movetext.
    ends: Vec<usize>,
    sans: Vec<shakmaty::san::SanPlus>,
    result: String,
    fen: Option<String>,
}

impl Sim {
    fn plies(&self) -> usize {
        self.ends.len()
    }

    /// The game after `k` plies, as a live board writes it (result `*`),
    /// with the comment (a clock) that follows the last move.
    fn version(&self, k: usize) -> Vec<u8> {
        let mut cut = if k == 0 { 0 } else { self.ends[k - 1] };
        let rest = &self.movetext[cut..];
        let lead = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if rest.get(lead) == Some(&b'{') {
            if let Some(close) = rest.iter().position(|&b| b == b'}') {
                cut += close + 1;
            }
        }
        let mut moves = self.movetext[..cut].to_vec();
        moves.extend_from_slice(b" *");
        self.text("*", &moves)
    }

    /// The game as it ended.
    fn last(&self) -> Vec<u8> {
        self.text(&self.result, &self.movetext)
    }

    /// The final moves with the result left open (`*`).
    fn open(&self) -> Vec<u8> {
        self.text("*", &self.movetext)
    }

    fn text(&self, result: &str, movetext: &[u8]) -> Vec<u8> {
        let mut t = format!("[Event \"Sim\"]\n[Round \"{}\"]\n", self.round).into_bytes();
        t.extend_from_slice(&self.tags);
        t.extend_from_slice(format!("[Result \"{result}\"]\n\n").as_bytes());
        t.extend_from_slice(movetext);
        t.extend_from_slice(b"\n\n");
        t
    }
}

/// The games of `pgn` at `indexes` (0-based, as the audit counts them),
/// as simulation games of rounds `round.1`, `round.2`, ...
fn sims(pgn: &[u8], indexes: &BTreeSet<usize>, round: &str, out: &mut Vec<Sim>) {
    for (i, g) in Splitter::new(pgn).enumerate() {
        if !indexes.contains(&i) || g.tag("Variant").is_some() {
            continue;
        }
        let map = MovetextMap::read(g.movetext);
        let Some((start, end)) = map.result else {
            continue;
        };
        let mut tags = Vec::new();
        for (name, value) in &g.tags {
            if [&b"Event"[..], b"Round", b"Result", b"GameURL"].contains(name) {
                continue;
            }
            tags.extend_from_slice(b"[");
            tags.extend_from_slice(name);
            tags.extend_from_slice(b" \"");
            tags.extend_from_slice(value);
            tags.extend_from_slice(b"\"]\n");
        }
        let result = g
            .tag("Result")
            .map(tag_text)
            .unwrap_or_else(|| String::from_utf8_lossy(&g.movetext[start..end]).into_owned());
        out.push(Sim {
            round: format!("{round}.{}", out.len() + 1),
            tags,
            movetext: g.movetext[..end].to_vec(),
            ends: map.moves.iter().map(|(e, _)| *e).collect(),
            sans: map.moves.into_iter().map(|(_, s)| s).collect(),
            result,
            fen: g.tag("FEN").map(tag_text),
        });
    }
}

/// Hand-made games for the endings the samples lack: a checkmate scored as
/// a draw, a loss on time against a lone king, a stalemate scored as a
/// win, a fivefold repetition.
fn hand_made(out: &mut Vec<Sim>) {
    let games = [
        ("Fool", "1/2-1/2", "1. f3 e5 2. g4 Qh4#"),
        (
            "Flag\"]\n[Termination \"Time forfeit\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n[SetUp \"1",
            "0-1",
            "1. Ra2 Kd7 2. Ra7+ Kc6",
        ),
        (
            "Loyd",
            "1-0",
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6",
        ),
        (
            "Shuffle",
            "1-0",
            "1. Nf3 {[%clk 0:05:00]} Nf6 {[%clk 0:05:00]} 2. Ng1 {[%clk 0:04:58]} Ng8 {[%clk 0:04:57]} 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 e5 10. Qh5 Nc6 11. Bc4 Nf6 12. Qxf7#",
        ),
    ];
    let mut pgn = String::new();
    for (white, result, moves) in games {
        pgn.push_str(&format!(
            "[White \"{white}\"]\n[Black \"Hand\"]\n[Date \"2024.01.01\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        ));
    }
    sims(pgn.as_bytes(), &(0..games.len()).collect(), "9", out);
}

/// The games of the simulation: from `data/` the games with findings and
/// a few without, the hand-made ones, and where `../shared` is there, games
/// of its tournament and Lichess files for every other kind.
fn corpus() -> Vec<Sim> {
    let mut out = Vec::new();
    let mut pick = |path: &Path, bytes: &[u8], round: &str, per_kind: usize, clean: usize| {
        let findings = util::audit_path(path, &[]);
        let mut by_kind: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for f in &findings {
            let game = f["game"].as_u64().unwrap() as usize;
            by_kind
                .entry(f["kind"].as_str().unwrap().into())
                .or_default()
                .push(game);
        }
        let invalid: BTreeSet<usize> = by_kind
            .get("invalid_game")
            .into_iter()
            .flatten()
            .copied()
            .collect();
        let with: BTreeSet<usize> = findings
            .iter()
            .map(|f| f["game"].as_u64().unwrap() as usize)
            .collect();
        let mut chosen = BTreeSet::new();
        for (kind, games) in &by_kind {
            if kind == "invalid_game" {
                continue;
            }
            chosen.extend(games.iter().filter(|g| !invalid.contains(g)).take(per_kind));
        }
        chosen.extend(
            (0..400)
                .filter(|g| !with.contains(g))
                .step_by(97)
                .take(clean),
        );
        sims(bytes, &chosen, round, &mut out);
    };
    let lichess = root().join("data/lichess-2000.pgn");
    pick(&lichess, &std::fs::read(&lichess).unwrap(), "1", 3, 2);
    let twic = root().join("data/twic-2000.pgn.zst");
    let bytes = zstd::decode_all(std::fs::File::open(&twic).unwrap()).unwrap();
    pick(&twic, &bytes, "2", 3, 1);
    if Needs::check("the shared tournament and online files")
        .shared("data/otb-twic-events.pgn.zst")
        .shared("data/online-lichess.pgn.zst")
        .shared("data/online-chesscom.pgn.zst")
        .met()
    {
        for (name, round) in [
            ("otb-twic-events.pgn.zst", "3"),
            ("online-lichess.pgn.zst", "4"),
            ("online-chesscom.pgn.zst", "5"),
        ] {
            let path = shared().join("data").join(name);
            let bytes = zstd::decode_all(std::fs::File::open(&path).unwrap()).unwrap();
            pick(&path, &bytes, round, 1, 0);
        }
    }
    hand_made(&mut out);
    out
}

// ---------------------------------------------------------------------------
// What the audit implies
// ---------------------------------------------------------------------------

/// The events the audit implies for one game.
#[derive(Debug, Default)]
struct Expected {
    /// (event, what, ply): game_over, the result kinds, near_*.
    exact: BTreeSet<(String, String, u64)>,
    /// claim_available by what: (plies it held at, first ply, its FEN, SAN).
    claims: BTreeMap<String, (u64, u64, String, Option<String>)>,
}

/// The findings of `pgn-arbiter audit` on the games as `text` writes them,
/// by round.
fn findings_by_round(
    games: &[Sim],
    text: impl Fn(&Sim) -> Vec<u8>,
) -> BTreeMap<String, Vec<Value>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, games.iter().flat_map(&text).collect::<Vec<u8>>()).unwrap();
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for f in util::audit_path(&path, &[]) {
        out.entry(f["Round"].as_str().unwrap().to_string())
            .or_default()
            .push(f);
    }
    out
}

/// near_threefold and near_fifty as a replay of its own counts them: a
/// position standing a second time (the Laws' identity: shakmaty's legal
/// e.p. Zobrist key), a half-move clock of 90.
fn near(sim: &Sim) -> Vec<(String, String, u64)> {
    let mut pos: Chess = match &sim.fen {
        Some(f) => f
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap(),
        None => Chess::default(),
    };
    let mut seen: HashMap<Zobrist128, u32> = HashMap::new();
    let mut out = Vec::new();
    for ply in 0..=sim.plies() {
        let key = pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal);
        let n = seen.entry(key).or_default();
        *n += 1;
        if *n == 2 {
            out.push(("near_threefold".into(), String::new(), ply as u64));
        }
        let clock = pos.halfmoves();
        if clock == 90 || (ply == 0 && (90..100).contains(&clock)) {
            out.push(("near_fifty".into(), String::new(), ply as u64));
        }
        if ply < sim.plies() {
            let m = sim.sans[ply].san.to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
    }
    out
}

/// The events each game's final version implies, by round.
fn expected(games: &[Sim]) -> BTreeMap<String, Expected> {
    let open = findings_by_round(games, Sim::open);
    let last = findings_by_round(games, Sim::last);
    let mut out = BTreeMap::new();
    for sim in games {
        let mut e = Expected::default();
        for f in open.get(&sim.round).into_iter().flatten() {
            let ply = f["ply"].as_u64().unwrap();
            let kind = f["kind"].as_str().unwrap();
            match kind {
                "missed_threefold" | "missed_fifty_moves" => {
                    let what = if kind == "missed_threefold" {
                        "threefold"
                    } else {
                        "fifty_moves"
                    };
                    e.claims.insert(
                        what.into(),
                        (
                            f["occurrences"].as_u64().unwrap(),
                            ply,
                            f["fen"].as_str().unwrap().into(),
                            f["san"].as_str().map(String::from),
                        ),
                    );
                }
                "fivefold" | "seventyfive_moves" | "dead_position" => {
                    e.exact.insert(("game_over".into(), kind.into(), ply));
                }
                "wrong_result" => {
                    let why = f["reason"].as_str().unwrap();
                    let what = if why.starts_with("checkmate") {
                        "checkmate"
                    } else {
                        "stalemate"
                    };
                    e.exact.insert(("game_over".into(), what.into(), ply));
                }
                "invalid_game" => panic!("round {}: {f}", sim.round),
                _ => {}
            }
        }
        if sim.result != "*" {
            for f in last.get(&sim.round).into_iter().flatten() {
                let kind = f["kind"].as_str().unwrap();
                if ["wrong_result", "unwinnable_flag", "drawn_flag", "site_rule"].contains(&kind) {
                    let what = if kind == "site_rule" {
                        f["rule"].as_str().unwrap()
                    } else {
                        ""
                    };
                    e.exact
                        .insert((kind.into(), what.into(), f["ply"].as_u64().unwrap()));
                }
            }
        }
        e.exact.extend(near(sim));
        out.insert(sim.round.clone(), e);
    }
    out
}

/// What is wrong with `events` against `want`: missing and extra events,
/// events reported twice. `announced_san`: compare the SAN of announced
/// claims too (a live board names the first announcing move, the final
/// record the move played).
fn problems(
    events: &[Value],
    want: &BTreeMap<String, Expected>,
    announced_san: bool,
) -> Vec<String> {
    let mut got: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    let mut once = BTreeSet::new();
    let mut out = Vec::new();
    for e in events {
        let id = (
            e["game"].to_string(),
            e["event"].to_string(),
            e["what"].to_string(),
            e["ply"].to_string(),
            e["fen"].to_string(),
        );
        if !once.insert(id) {
            out.push(format!("twice: {e}"));
        }
        got.entry(e["round"].as_str().unwrap_or("?").to_string())
            .or_default()
            .push(e);
    }
    for round in got.keys() {
        if !want.contains_key(round) {
            out.push(format!("events of an unknown game {round}"));
        }
    }
    for (round, w) in want {
        let evs = got.get(round).cloned().unwrap_or_default();
        let exact: BTreeSet<(String, String, u64)> = evs
            .iter()
            .filter(|e| e["event"] != "claim_available")
            .map(|e| {
                let what = match e["event"].as_str().unwrap() {
                    "game_over" | "site_rule" => e["what"].as_str().unwrap().to_string(),
                    _ => String::new(),
                };
                (
                    e["event"].as_str().unwrap().to_string(),
                    what,
                    e["ply"].as_u64().unwrap(),
                )
            })
            .collect();
        for m in w.exact.difference(&exact) {
            out.push(format!("round {round}: missing {m:?}"));
        }
        for x in exact.difference(&w.exact) {
            out.push(format!("round {round}: extra {x:?}"));
        }
        let mut claims: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
        for e in evs.iter().filter(|e| e["event"] == "claim_available") {
            claims
                .entry(e["what"].as_str().unwrap().to_string())
                .or_default()
                .push(e);
        }
        for (what, (count, first, fen, san)) in &w.claims {
            let mut cs = claims.remove(what).unwrap_or_default();
            cs.sort_by_key(|e| e["ply"].as_u64());
            if cs.len() as u64 != *count {
                out.push(format!(
                    "round {round}: {what} claims at {} plies, the audit counts {count}",
                    cs.len()
                ));
            }
            let Some(c) = cs.first() else { continue };
            if c["ply"].as_u64() != Some(*first) || c["fen"].as_str() != Some(fen) {
                out.push(format!("round {round}: first {what} claim at ply {} ({}), the audit's at {first} ({fen})", c["ply"], c["fen"]));
            }
            if (announced_san || c["via"] == "occurred")
                && c["san"].as_str().map(String::from) != *san
            {
                out.push(format!(
                    "round {round}: {what} claim names {}, the audit {san:?}",
                    c["san"]
                ));
            }
        }
        for (what, cs) in claims {
            out.push(format!(
                "round {round}: {} {what} claims the audit does not imply",
                cs.len()
            ));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The simulators
// ---------------------------------------------------------------------------

/// Writes `bytes` to `path` by a rename (a new inode), as many live
/// boards do.
fn replace(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// How many plies board `b` shows at step `step` of `steps`.
fn plies_at(sim: &Sim, step: usize, steps: usize) -> usize {
    (sim.plies() * step).div_ceil(steps)
}

const STEPS: usize = 12;

/// Plays the games into a DGT LiveChess round folder: `game-N.pgn` per
/// board, rewritten whole after each step's moves (by rename, in place, or
/// in place in two writes that a read may fall between), `games.pgn`
/// holding every board a step behind; board 2 takes a move back; the last
/// board appears half-way; a file that is no PGN comes and goes.
fn play_dgt(dir: &Path, games: &[Sim], pause: Duration) {
    let late = games.len() - 1;
    let mut shown = vec![0usize; games.len()];
    let file = |b: usize| dir.join(format!("game-{}.pgn", b + 1));
    std::fs::write(dir.join("notes.pgn"), b"\x00\x01binary, not PGN\xff\xfe").unwrap();
    for step in 0..=STEPS {
        let mut combined = Vec::new();
        for (b, sim) in games.iter().enumerate() {
            if b == late && step < STEPS / 2 {
                continue;
            }
            combined.extend(sim.version(shown[b]));
            let k = plies_at(sim, step, STEPS);
            let text = if step == STEPS {
                sim.last()
            } else {
                sim.version(k)
            };
            match b % 3 {
                0 => replace(&file(b), &text),
                1 => std::fs::write(file(b), &text).unwrap(),
                _ => {
                    // a half-written file: a read may see the first part
                    let cut = text.len() * 2 / 3;
                    let mut f = std::fs::File::create(file(b)).unwrap();
                    f.write_all(&text[..cut]).unwrap();
                    f.flush().unwrap();
                    std::thread::sleep(pause / 2);
                    f.write_all(&text[cut..]).unwrap();
                }
            }
            if b == 1 && step == 4 && k > 1 {
                // a takeback: the last move taken back, then played again
                std::thread::sleep(pause);
                replace(&file(b), &sim.version(k - 1));
                std::thread::sleep(pause);
                replace(&file(b), &text);
            }
            shown[b] = k;
        }
        replace(&dir.join("games.pgn"), &combined);
        std::thread::sleep(pause);
    }
    let all: Vec<u8> = games.iter().flat_map(Sim::last).collect();
    replace(&dir.join("games.pgn"), &all);
    std::fs::remove_file(dir.join("notes.pgn")).unwrap();
}

/// Appends the games to `path` one after another as they end, each in two
/// writes (a read may fall between them).
fn play_appended(path: &Path, games: &[Sim], pause: Duration) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    for sim in games {
        let text = sim.last();
        let cut = text.len() / 2;
        f.write_all(&text[..cut]).unwrap();
        f.flush().unwrap();
        std::thread::sleep(pause);
        f.write_all(&text[cut..]).unwrap();
        f.flush().unwrap();
    }
}

/// Every version of every game, boards in turn, as a broadcast sends them.
fn broadcast(games: &[Sim]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut shown = vec![usize::MAX; games.len()];
    for step in 0..=STEPS {
        for (b, sim) in games.iter().enumerate() {
            let k = plies_at(sim, step, STEPS);
            if k == shown[b] && step < STEPS {
                continue;
            }
            shown[b] = k;
            out.extend(if step == STEPS {
                sim.last()
            } else {
                sim.version(k)
            });
        }
    }
    out
}

/// The events a watch wrote to `jsonl`: every line whole.
fn read_events(jsonl: &Path) -> Vec<Value> {
    let bytes = std::fs::read(jsonl).unwrap_or_default();
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "a partial line in {}",
        jsonl.display()
    );
    json_lines(&bytes)
}

/// Waits until the watch has written every event `want` implies (at most
/// 60 s; the comparison afterwards says what is missing).
fn wait_for(jsonl: &Path, want: &BTreeMap<String, Expected>) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let missing = problems(&read_events(jsonl), want, false)
            .iter()
            .any(|p| p.contains("missing") || p.contains("plies, the audit"));
        if !missing {
            // a moment for anything extra to show
            std::thread::sleep(Duration::from_millis(300));
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `pgn-arbiter watch ARGS` running live: no stdin, stdout dropped,
/// stderr kept for [`stop_watch`].
fn live_watch<I, S>(args: I) -> Child
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    bin()
        .arg("watch")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Ctrl-C to a [`live_watch`]: it ends with 130; its stderr.
fn stop_watch(child: &mut Child) -> String {
    util::interrupt(child.id());
    let status = util::wait_within(child, Duration::from_secs(10), "watch after Ctrl-C");
    let stderr = stderr_of(child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    stderr
}

fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    child.stderr.take().unwrap().read_to_string(&mut s).unwrap();
    s
}

fn assert_none(problems: Vec<String>, what: &str) {
    assert!(
        problems.is_empty(),
        "{what}: {} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

/// The live case: a watch process polling a DGT folder and an appended
/// file while the games are played, then Ctrl-C (130, whole outputs); then
/// `--once` over the final files, SAN of announced claims included.
#[test]
fn a_live_round_gets_exactly_the_events_the_audit_implies() {
    let games = corpus();
    assert!(games.len() >= 12, "{} games", games.len());
    let (boards, appended) = games.split_at(games.len() * 2 / 3);
    let dir = tempfile::tempdir().unwrap();
    let round = dir.path().join("round");
    std::fs::create_dir(&round).unwrap();
    let finished = dir.path().join("finished.pgn");
    let jsonl = dir.path().join("events.jsonl");
    let page = dir.path().join("live.html");
    let mut child = live_watch([
        "--poll".as_ref(),
        "40".as_ref(),
        "--quiet".as_ref(),
        "--jsonl".as_ref(),
        jsonl.as_os_str(),
        "--html".as_ref(),
        page.as_os_str(),
        round.as_os_str(),
        finished.as_os_str(),
    ]);
    let pause = Duration::from_millis(60);
    let (b, a) = (boards.to_vec(), appended.to_vec());
    let (r, f) = (round.clone(), finished.clone());
    let dgt = std::thread::spawn(move || play_dgt(&r, &b, pause));
    let app = std::thread::spawn(move || play_appended(&f, &a, pause));
    dgt.join().unwrap();
    app.join().unwrap();
    let want = expected(&games);
    wait_for(&jsonl, &want);
    let stderr = stop_watch(&mut child);
    let events = read_events(&jsonl);
    assert_none(problems(&events, &want, false), "live");
    // what the bundled samples and the hand-made games hold at least
    let kinds: BTreeSet<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    for kind in [
        "claim_available",
        "near_threefold",
        "game_over",
        "wrong_result",
        "unwinnable_flag",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
    assert!(
        stderr.contains("notes.pgn") && stderr.contains("not PGN"),
        "{stderr}"
    );
    assert!(stderr.contains("notes.pgn: deleted"), "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<meta http-equiv=\"refresh\""));
    assert_eq!(
        html.matches("<tr class=").count(),
        games.len(),
        "a row per board"
    );

    // --once over the same files: the same events, each once
    let once_jsonl = dir.path().join("once.jsonl");
    let out = bin()
        .args(["watch", "--once", "--jsonl"])
        .arg(&once_jsonl)
        .arg(&round)
        .arg(&finished)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let once = read_events(&once_jsonl);
    assert_none(problems(&once, &want, true), "--once");
    // a human line per event on stdout
    assert_eq!(text(&out.stdout).lines().count(), once.len());
    // clean games: nothing
    let quiet: Vec<&Sim> = games
        .iter()
        .filter(|g| want[&g.round].exact.is_empty() && want[&g.round].claims.is_empty())
        .collect();
    assert!(!quiet.is_empty(), "clean games in the corpus");
}

/// A broadcast stream on stdin, whole games sent again after each change
/// and cut anywhere by the pipe; the watch ends with 0 when it ends.
#[test]
fn a_broadcast_on_stdin_gets_exactly_the_events_the_audit_implies() {
    let games = corpus();
    let stream = broadcast(&games);
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("events.jsonl");
    let mut child = bin()
        .args(["watch", "-", "--jsonl"])
        .arg(&jsonl)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // odd-sized pieces: games, moves and tags cut anywhere
        for piece in stream.chunks(4093) {
            stdin.write_all(piece).unwrap();
            stdin.flush().unwrap();
        }
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    writer.join().unwrap();
    let status = util::wait_within(&mut child, Duration::from_secs(60), "watch -");
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(0), "{stderr}");
    let events = read_events(&jsonl);
    assert_none(problems(&events, &expected(&games), false), "stdin");
    assert_eq!(stdout.lines().count(), events.len());
}

/// A game that turns illegal is named on stderr with its move; the watch
/// goes on and judges the corrected record.
#[test]
fn an_illegal_move_is_named_and_the_watch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let game = |moves: &str| {
        format!("[Event \"E\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{moves} *\n")
    };
    let stream = format!(
        "{}{}{}",
        game("1. e4 e5 2. Ke3"),
        game("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7 7. Ke1 Ke8"),
        "\n\x00\x01\x02 no game here\n\n"
    );
    let jsonl = dir.path().join("e.jsonl");
    let mut child = bin()
        .args(["watch", "-", "--once", "--jsonl"])
        .arg(&jsonl)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stream.as_bytes())
        .unwrap();
    let status = util::wait_within(&mut child, Duration::from_secs(20), "watch");
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("[E r1] A - B: 2. Ke3:"), "{stderr}");
    assert!(stderr.contains("not PGN"), "{stderr}");
    let events = read_events(&jsonl);
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "claim_available" && e["ply"] == 12),
        "{events:#?}"
    );
}

/// A file whose last game has no result token (its writer puts none, not
/// even `*`, while the game goes on) was never judged: `--once` said
/// nothing and the live watch waited for ever. `--once` judges it as it
/// stands; the live watch once the file has stood unchanged.
#[test]
fn a_trailing_game_without_a_result_waited_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.pgn");
    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
    std::fs::write(&board, format!("[White \"A\"]\n[Black \"B\"]\n\n{moves}\n")).unwrap();
    let claimed = |events: &[Value]| {
        events
            .iter()
            .any(|e| e["event"] == "claim_available" && e["ply"] == 8)
    };
    let once = dir.path().join("once.jsonl");
    let out = bin()
        .args(["watch", "--once", "--jsonl"])
        .arg(&once)
        .arg(&board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let events = read_events(&once);
    assert!(claimed(&events), "--once: {events:#?}");

    let live = dir.path().join("live.jsonl");
    let mut child = live_watch([
        "--poll".as_ref(),
        "50".as_ref(),
        "--quiet".as_ref(),
        "--jsonl".as_ref(),
        live.as_os_str(),
        board.as_os_str(),
    ]);
    let start = Instant::now();
    while !claimed(&read_events(&live)) && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    stop_watch(&mut child);
    let events = read_events(&live);
    assert!(claimed(&events), "live: {events:#?}");
    // each event once, as with --once
    assert_eq!(events.len(), read_events(&once).len(), "{events:#?}");
}

/// Every event line validates against docs/watch-event.schema.json.
#[test]
fn events_validate_against_their_schema() {
    if !Needs::test().python(&["jsonschema"]).met() {
        return;
    }
    let games = corpus();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("all.pgn");
    std::fs::write(&pgn, games.iter().flat_map(Sim::last).collect::<Vec<u8>>()).unwrap();
    let jsonl = dir.path().join("e.jsonl");
    let out = bin()
        .args(["watch", "--once", "--quiet", "--jsonl"])
        .arg(&jsonl)
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let events = read_events(&jsonl);
    let kinds: BTreeSet<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert!(kinds.len() >= 5, "{kinds:?}");
    let check = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
v = cls(schema)
bad = 0
for n, line in enumerate(open(sys.argv[2]), 1):
    for e in v.iter_errors(json.loads(line)):
        bad += 1
        print(n, e.message)
broken = {"schema_version": 2, "event": "claim_available"}
assert list(v.iter_errors(broken)), "the schema accepts a broken event"
sys.exit(1 if bad else 0)
"#;
    let out = util::python()
        .args(["-c", check])
        .arg(root().join("docs/watch-event.schema.json"))
        .arg(&jsonl)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The live page in headless Chromium: a row per board, the claims and
/// endings shown as text (`PGN_ARBITER_UPDATE_SCREENSHOT=1` keeps the
/// screenshot as docs/watch.png).
#[test]
fn the_live_page_opens_in_chromium() {
    if !Needs::test().chromium().met() {
        return;
    }
    let mut games = Vec::new();
    hand_made(&mut games);
    let lichess = root().join("data/lichess-2000.pgn");
    let bytes = std::fs::read(&lichess).unwrap();
    sims(&bytes, &(0..6).collect(), "1", &mut games);
    // a board where a draw can be claimed now (9.2b at ply 9)
    let mut open = games[3].clone();
    open.round = "9.5".into();
    let dir = tempfile::tempdir().unwrap();
    util::write(dir.path(), "round/game-20.pgn", open.version(9));
    for (b, g) in games.iter().enumerate() {
        // boards in play: most of the game shown, the hand-made ones ended
        let k = if b < 4 { g.plies() } else { g.plies() * 3 / 4 };
        let text = if b < 4 { g.last() } else { g.version(k) };
        util::write(dir.path(), &format!("round/game-{}.pgn", b + 1), text);
    }
    let page = dir.path().join("live.html");
    let out = bin()
        .args(["watch", "--once", "--quiet", "--html"])
        .arg(&page)
        .arg(dir.path().join("round"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let chromium = util::chromium().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let run = |extra: &[String]| {
        Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(format!("file://{}", page.display()))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let dom = run(&["--dump-dom".to_string()]);
    let dom = text(&dom.stdout);
    assert_eq!(dom.matches("<tr class=").count(), games.len() + 1, "{dom}");
    assert!(dom.contains("<tr class=\"claim\">"), "{dom}");
    assert!(dom.contains("checkmate at ply 4"), "{dom}");
    assert!(dom.contains("stalemate at ply 19"), "{dom}");
    let shot: PathBuf = dir.path().join("watch.png");
    let out = run(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=1400,700".to_string(),
    ]);
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot ({e}): {}", text(&out.stderr)));
    assert!(png.starts_with(b"\x89PNG"));
    if std::env::var_os("PGN_ARBITER_UPDATE_SCREENSHOT").is_some_and(|v| v != "0") {
        std::fs::write(root().join("docs/watch.png"), &png).unwrap();
    }
}

/// Without --poll the operating system's notices wake the watch: a board
/// file replaced by a rename and another written in place, then a new
/// file, each seen; Ctrl-C ends it with 130.
#[test]
fn change_notices_wake_the_watch() {
    let mut games = Vec::new();
    hand_made(&mut games);
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("e.jsonl");
    let mut child = live_watch([
        "--quiet".as_ref(),
        "--jsonl".as_ref(),
        jsonl.as_os_str(),
        dir.path().as_os_str(),
    ]);
    // the watch is ready once its (empty) page of events exists: the JSONL
    let start = Instant::now();
    while !jsonl.exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for step in 0..=4 {
        for (b, sim) in games.iter().enumerate() {
            let k = plies_at(sim, step, 4);
            let text = if step == 4 {
                sim.last()
            } else {
                sim.version(k)
            };
            let path = dir.path().join(format!("game-{}.pgn", b + 1));
            if b % 2 == 0 {
                replace(&path, &text);
            } else {
                std::fs::write(&path, &text).unwrap();
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let want = expected(&games);
    wait_for(&jsonl, &want);
    let stderr = stop_watch(&mut child);
    assert!(
        !stderr.contains("polling"),
        "notices were not used: {stderr}"
    );
    assert_none(problems(&read_events(&jsonl), &want, false), "notices");
}
