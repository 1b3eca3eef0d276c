"""An independent check of SPEC's "Site rules" on python-chess.

Usage: check_site_rules.py [--site SITE] FINDINGS.jsonl GAMES.pgn [GAMES.pgn ...]

SITE as pgn-arbiter's `--site`: `auto` (the default: by the Site tag),
`none`, `lichess`, `chesscom`, `fics` (that site's rules, and its words,
for every game) or `fide-online` (below).

Replays every game of a known site (by its Site tag) with python-chess,
judges it by the site's rulebook as SPEC.md writes it (written here again,
not shared with the Rust code), and compares the set of (file, game, rule,
ply) of the site_rule findings with pgn-arbiter's JSON Lines (the files in
the order pgn-arbiter was given them). It also tests python-chess's
documented claim that `has_insufficient_material(color)` only looks at
material, and that it is Lichess's timeout rule: on every final position of
a Lichess game lost on time it must equal the rule written from scalachess.
It checks Art. 6.9's findings on SPEC's one definition of a loss on time
too: each `drawn_flag` on a game lost on time and drawn, with a mating
line that mates the flagging side; each `unwinnable_flag` on a game won on
time; none missing where the winner's material cannot mate.
Prints per site the rulings named and supported; exit 1 on a difference.

With `--site fide-online` (pgn-arbiter run with the same option) every
game is judged by FIDE's Online Chess Regulations as SPEC writes them: the
third occurrence and 100 half-moves without pawn move or capture (Art.
5.4) exactly, where moves followed or the result is not 1/2-1/2; a dead
position and a loss on time against a side that cannot mate (Arts 5.4,
4.4) where python-chess proves them (insufficient material), which
pgn-arbiter's engine must then find too, at that ply or before (it proves
more positions dead than material alone).
"""

import io
import json
import re
import sys
from collections import Counter, defaultdict

import chess
import chess.pgn

LATE = 4
DARK = chess.BB_DARK_SQUARES
LIGHT = chess.BB_LIGHT_SQUARES


def site_of(tag):
    t = (tag or "").lower()
    if "lichess.org" in t:
        return "lichess"
    if "freechess.org" in t:
        return "fics"
    if "chess.com" in t:
        return "chesscom"
    return None


def day(tags):
    for name in ("Date", "UTCDate"):
        m = re.match(r"\s*(\d{4})(?:[./-](\d{1,2}|\?\?))?(?:[./-](\d{1,2}|\?\?))?", tags.get(name, ""))
        if m:
            y = int(m.group(1))
            mo = int(m.group(2)) if m.group(2) and m.group(2).isdigit() else 1
            d = int(m.group(3)) if m.group(3) and m.group(3).isdigit() else 1
            return (y, mo, d)
    return None


def men(board, color):
    """The men of `color` besides its king, as a list of piece types."""
    return [p.piece_type for sq, p in board.piece_map().items() if p.color == color and p.piece_type != chess.KING]


def bishops_one_colour(board):
    b = int(board.bishops)
    return not (b & DARK) or not (b & LIGHT)


def material_draw(site, board):
    both = men(board, chess.WHITE) + men(board, chess.BLACK)
    if any(t in (chess.PAWN, chess.ROOK, chess.QUEEN) for t in both):
        return False
    if site == "lichess":
        return len(both) + 2 <= 3 or (chess.KNIGHT not in both and bishops_one_colour(board))
    if site == "chesscom":
        w, b = men(board, chess.WHITE), men(board, chess.BLACK)
        if len(w) <= 1 and len(b) <= 1:
            return True
        return (w == [chess.KNIGHT] * 2 and not b) or (b == [chess.KNIGHT] * 2 and not w)
    return len(both) <= 1  # fics


def lichess_timeout(board, winner):
    own, theirs = men(board, winner), men(board, not winner)
    if not own:
        return True
    if own == [chess.KNIGHT]:
        return all(t == chess.QUEEN for t in theirs)
    if all(t == chess.BISHOP for t in own):
        return bishops_one_colour(board) and not any(t in (chess.KNIGHT, chess.PAWN) for t in theirs)
    return False


def timeout_draw(site, board, winner):
    if site == "lichess":
        return lichess_timeout(board, winner)
    own = men(board, winner)
    return len(own) == 0 or (len(own) == 1 and own[0] in (chess.BISHOP, chess.KNIGHT))


WORDS = {
    "lichess": [("insufficient material", "material"), ("time forfeit", "on_time")],
    "chesscom": [("timeout vs insufficient material", "on_time"), ("drawn by repetition", "repetition"),
                 ("drawn by insufficient material", "material"), ("drawn by 50-move rule", "fifty"),
                 ("drawn by stalemate", "stalemate"), ("won on time", "on_time")],
    "fics": [("drawn by repetition", "repetition"), ("neither player has mating material", "material"),
             ("drawn by the 50 move rule", "fifty"), ("drawn by stalemate", "stalemate"),
             ("has no material to mate", "on_time"), ("forfeits on time", "on_time")],
}


def named(site, game):
    if site == "fics":
        node = game.end()
        text = node.comment if node is not game or node.comment else ""
        if not text:
            return None, None
    else:
        text = game.headers.get("Termination")
        if text is None:
            return None, None
    low = text.lower()
    for words, ruling in WORDS[site]:
        if words in low:
            first = low.split()[0] if low.split() else ""
            # Only FICS's words start with the colour that flagged;
            # chess.com's "X won on time" starts with a player's name.
            names = ruling == "on_time" and site == "fics"
            flagged = {"white": chess.WHITE, "black": chess.BLACK}.get(first) if names else None
            return ruling, flagged
    return "other", None


def lost_on_time(site, game, board):
    """SPEC "Lost on time": the colour that ran out of time, or None.
    The Termination tag's words, or the site's own words where it writes
    them elsewhere (FICS's last comment); the side the record names, else
    the loser by the Result, else the side to move; a Lichess "Time
    forfeit" scored 1/2-1/2 only where Lichess's timeout rule gives the
    side with time left no win."""
    termination = game.headers.get("Termination", "").lower()
    ruling, named_side = named(site, game) if site else (None, None)
    if not any(w in termination for w in ("time forfeit", "won on time", "timeout")) and ruling != "on_time":
        return None
    result = game.headers.get("Result", "*")
    if named_side is not None:
        flagged = named_side
    elif result == "1-0":
        flagged = chess.BLACK
    elif result == "0-1":
        flagged = chess.WHITE
    else:
        flagged = board.turn
    if site == "lichess" and result == "1/2-1/2" and not lichess_timeout(board, not flagged):
        return None
    return flagged


def judge(site, game, claims):
    """The (rule, ply) of the site_rule findings of `game`; `claims`
    counts the rulings checked and supported."""
    tags = game.headers
    d = day(tags)
    rules = {"material": True, "timeout": True,
             "fifty": site in ("lichess", "chesscom"),
             "repetition": {"lichess": 5 if d and d >= (2020, 1, 14) else None, "chesscom": 3, "fics": None}[site]}
    board = game.board()
    counts = Counter()
    first = {}
    threefold = False
    moves = list(game.mainline_moves())
    for ply in range(len(moves) + 1):
        key = board._transposition_key()
        counts[key] += 1
        n = counts[key]
        threefold |= n >= 3
        over = board.is_checkmate() or board.is_stalemate()
        if rules["repetition"] and n >= rules["repetition"] and not over:
            first.setdefault("repetition", ply)
        if rules["fifty"] and board.halfmove_clock >= 100 and not over:
            first.setdefault("fifty_moves", ply)
        if material_draw(site, board) and not over:
            first.setdefault("material", ply)
        if ply < len(moves):
            board.push(moves[ply])
    end = len(moves)
    result = tags.get("Result", "*")
    decided = result in ("1-0", "0-1")
    ruling, _ = named(site, game)
    out = []
    for rule, ply in first.items():
        after = end - ply
        if after > LATE or decided or (after > 0 and ruling not in (None, "repetition", "material", "fifty", "stalemate")):
            out.append((rule, ply))
    supported = None
    if ruling == "repetition":
        supported, rule = threefold, "ruling"
    elif ruling == "material":
        supported, rule = material_draw(site, board), "ruling"
    elif ruling == "fifty":
        supported, rule = board.halfmove_clock >= 100, "ruling"
    elif ruling == "stalemate":
        supported, rule = board.is_stalemate(), "ruling"
    flagged = lost_on_time(site, game, board)
    if flagged is not None:
        # One definition of a loss on time, read before the ruling's words.
        winner = not flagged
        draws = timeout_draw(site, board, winner)
        if site == "lichess":
            # python-chess's docs: material only, Lichess's timeout rule
            assert board.has_insufficient_material(winner) == draws, (game.headers, board.fen())
        supported = None
        if decided:
            supported, rule = not draws, "timeout"
        elif result == "1/2-1/2":
            supported, rule = draws, "ruling"
    if supported is not None:
        claims[site][0] += 1
        claims[site][1] += supported
        if not supported:
            out.append((rule, end))
    return out


def judge_fide_online(site, game):
    """FIDE's online regulations: the exact (rule, ply) of the repetition
    and fifty_moves findings, and the (rule, ply) of the dead_position and
    timeout findings that insufficient material alone proves."""
    tags = game.headers
    board = game.board()
    counts = Counter()
    first = {}
    moves = list(game.mainline_moves())
    for ply in range(len(moves) + 1):
        key = board._transposition_key()
        counts[key] += 1
        over = board.is_checkmate() or board.is_stalemate()
        if counts[key] >= 3 and not over:
            first.setdefault("repetition", ply)
        if board.halfmove_clock >= 100 and not over:
            first.setdefault("fifty_moves", ply)
        if board.is_insufficient_material() and not over:
            first.setdefault("dead_position", ply)
        if ply < len(moves):
            board.push(moves[ply])
    end = len(moves)
    result = tags.get("Result", "*")
    exact, proven = [], []
    for rule, ply in first.items():
        if end > ply or result != "1/2-1/2":
            (proven if rule == "dead_position" else exact).append((rule, ply))
    flagged = lost_on_time(site, game, board)
    if flagged is not None and result in ("1-0", "0-1") and board.has_insufficient_material(not flagged):
        proven.append(("timeout", end))
    return exact, proven


def check_fide_online(findings_path, pgns):
    """`--site fide-online`: the exact rules equal, each proven draw found
    by pgn-arbiter at its ply or before, and each of pgn-arbiter's dead
    and timeout draws where its own Laws finding stands."""
    ours, laws = set(), set()
    for line in open(findings_path, encoding="utf-8"):
        f = json.loads(line)
        if f["kind"] == "site_rule" and f["site"] == "fide-online":
            ours.add((f["file"], f["game"], f["rule"], f["ply"]))
        elif f["kind"] in ("dead_position", "unwinnable_flag"):
            rule = "dead_position" if f["kind"] == "dead_position" else "timeout"
            laws.add((f["file"], f["game"], rule, f["ply"]))
    theirs, problems = set(), []
    for path in pgns:
        stream = io.StringIO(open(path, encoding="utf-8", errors="replace").read())
        index = 0
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            variant = game.headers.get("Variant", "Standard").lower()
            if not game.errors and variant in ("standard", "chess960", "from position"):
                exact, proven = judge_fide_online(site_of(game.headers.get("Site")), game)
                theirs.update((path, index, rule, ply) for rule, ply in exact)
                for rule, ply in proven:
                    if not any(o[:3] == (path, index, rule) and o[3] <= ply for o in ours):
                        problems.append(("proven, not found", path, index, rule, ply))
            index += 1
    exact_rules = ("repetition", "fifty_moves")
    ours_exact = {o for o in ours if o[2] in exact_rules}
    for o in sorted(ours - ours_exact - laws):
        problems.append(("no Laws finding beside it", *o))
    print(f"fide-online exact findings: pgn-arbiter {len(ours_exact)}, this check {len(theirs)}; "
          f"dead and timeout: pgn-arbiter {len(ours - ours_exact)}, problems {len(problems)}")
    for x in sorted(ours_exact - theirs):
        print("only pgn-arbiter:", x)
    for x in sorted(theirs - ours_exact):
        print("only this check:", x)
    for x in problems[:20]:
        print("fide-online:", x)
    sys.exit(0 if ours_exact == theirs and not problems else 1)


def replays_to_mate(board, line, loser):
    """Whether the SAN line (move numbers and all, as drawn_flag writes it)
    is legal from `board` and ends with `loser` checkmated."""
    board = board.copy()
    try:
        for token in line.split():
            if not re.fullmatch(r"\d+\.(\.\.)?", token):
                board.push_san(token)
    except ValueError:
        return False
    return board.is_checkmate() and board.turn == loser


def check_flags(site, game, index, name, ours, problems, counts):
    """Art. 6.9 on SPEC's one definition of a loss on time: every
    `drawn_flag` stands on a game lost on time and scored 1/2-1/2, for the
    side that did not flag, at the final position, and its mating line
    mates the flagging side; every `unwinnable_flag` stands on a game won
    on time by the side with time left; every such game whose winner has
    insufficient material (python-chess) has one."""
    board = game.end().board()
    end = game.end().ply()
    flagged = lost_on_time(site, game, board)
    result = game.headers.get("Result", "*")
    key = (name, index)
    drawn, unwinnable = ours["drawn_flag"].get(key), ours["unwinnable_flag"].get(key)
    if flagged is None:
        if drawn or unwinnable:
            problems.append(("flag in a game not lost on time", key))
        return
    winner = not flagged
    counts["lost on time"] += 1
    if drawn:
        counts["drawn_flag"] += 1
        ok = (result == "1/2-1/2" and drawn["winner"] == chess.COLOR_NAMES[winner] and drawn["ply"] == end
              and replays_to_mate(board, drawn["mate"], flagged))
        if not ok:
            problems.append(("drawn_flag not proven", key))
    won = result == ("1-0" if winner == chess.WHITE else "0-1")
    if unwinnable:
        counts["unwinnable_flag"] += 1
        if not (won and unwinnable["winner"] == chess.COLOR_NAMES[winner] and unwinnable["ply"] == end):
            problems.append(("unwinnable_flag not a win on time", key))
    elif won and board.has_insufficient_material(winner):
        problems.append(("unwinnable_flag missing", key))


def main():
    args = sys.argv[1:]
    mode = "auto"
    if args[:1] == ["--site"]:
        mode, args = args[1], args[2:]
    if mode == "fide-online":
        check_fide_online(args[0], args[1:])
        return
    findings_path, *pgns = args
    ours = set()
    flags = {"drawn_flag": {}, "unwinnable_flag": {}}
    for line in open(findings_path, encoding="utf-8"):
        f = json.loads(line)
        if f["kind"] == "site_rule":
            ours.add((f["file"], f["game"], f["rule"], f["ply"]))
        elif f["kind"] in flags:
            flags[f["kind"]][(f["file"], f["game"])] = f
    theirs = set()
    claims = defaultdict(lambda: [0, 0])
    problems, counts = [], Counter()
    for path in pgns:
        name = path  # pgn-arbiter was given the same paths
        text = open(path, encoding="utf-8", errors="replace").read()
        stream = io.StringIO(text)
        index = 0
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            # the rulebook that judges, and the site whose words the record
            # is read in (the Site tag's under `none`, as pgn-arbiter reads it)
            writer = site_of(game.headers.get("Site")) if mode in ("auto", "none") else mode
            site = None if mode == "none" else writer
            variant = game.headers.get("Variant", "Standard").lower()
            if not game.errors and variant in ("standard", "chess960", "from position"):
                if site:
                    for rule, ply in judge(site, game, claims):
                        theirs.add((name, index, rule, ply))
                check_flags(writer, game, index, name, flags, problems, counts)
            index += 1
    for site, (checked, supported) in sorted(claims.items()):
        print(f"{site}: rulings checked {checked}, supported {supported}")
    print(f"site_rule findings: pgn-arbiter {len(ours)}, this check {len(theirs)}")
    print(f"lost on time {counts['lost on time']}: drawn_flag {counts['drawn_flag']}, "
          f"unwinnable_flag {counts['unwinnable_flag']}, problems {len(problems)}")
    for x in sorted(ours - theirs):
        print("only pgn-arbiter:", x)
    for x in sorted(theirs - ours):
        print("only this check:", x)
    for x in problems[:20]:
        print("flag:", x)
    sys.exit(0 if ours == theirs and not problems else 1)


if __name__ == "__main__":
    main()
