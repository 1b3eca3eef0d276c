"""An independent check of SPEC's "Site rules" on python-chess.

Usage: check_site_rules.py FINDINGS.jsonl GAMES.pgn [GAMES.pgn ...]

Replays every game of a known site (by its Site tag) with python-chess,
judges it by the site's rulebook as SPEC.md writes it (written here again,
not shared with the Rust code), and compares the set of (file, game, rule,
ply) of the site_rule findings with pgn-arbiter's JSON Lines (the files in
the order pgn-arbiter was given them). It also tests python-chess's
documented claim that `has_insufficient_material(color)` only looks at
material, and that it is Lichess's timeout rule: on every final position of
a Lichess game lost on time it must equal the rule written from scalachess.
Prints per site the rulings named and supported; exit 1 on a difference.
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
            flagged = {"white": chess.WHITE, "black": chess.BLACK}.get(first) if ruling == "on_time" else None
            return ruling, flagged
    return "other", None


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
    ruling, flagged = named(site, game)
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
    elif ruling == "on_time":
        if flagged is not None:
            winner = not flagged
        elif result == "1-0":
            winner = chess.WHITE
        elif result == "0-1":
            winner = chess.BLACK
        else:
            winner = not board.turn
        draws = timeout_draw(site, board, winner)
        if site == "lichess":
            # python-chess's docs: material only, Lichess's timeout rule
            assert board.has_insufficient_material(winner) == draws, (game.headers, board.fen())
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


def main():
    findings_path, *pgns = sys.argv[1:]
    ours = set()
    for line in open(findings_path, encoding="utf-8"):
        f = json.loads(line)
        if f["kind"] == "site_rule":
            ours.add((f["file"], f["game"], f["rule"], f["ply"]))
    theirs = set()
    claims = defaultdict(lambda: [0, 0])
    for path in pgns:
        name = path  # pgn-arbiter was given the same paths
        text = open(path, encoding="utf-8", errors="replace").read()
        stream = io.StringIO(text)
        index = 0
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            site = site_of(game.headers.get("Site"))
            variant = game.headers.get("Variant", "Standard").lower()
            if site and not game.errors and variant in ("standard", "chess960", "from position"):
                for rule, ply in judge(site, game, claims):
                    theirs.add((name, index, rule, ply))
            index += 1
    for site, (checked, supported) in sorted(claims.items()):
        print(f"{site}: rulings checked {checked}, supported {supported}")
    print(f"site_rule findings: pgn-arbiter {len(ours)}, this check {len(theirs)}")
    for x in sorted(ours - theirs):
        print("only pgn-arbiter:", x)
    for x in sorted(theirs - ours):
        print("only this check:", x)
    sys.exit(0 if ours == theirs else 1)


if __name__ == "__main__":
    main()
