# Lichess-style annotations after every move of a PGN file, for the
# profile-guided build's training (scripts/pgo.sh): the bundled samples
# have no comments at all, while Lichess's and chess.com's own exports
# carry a clock comment (and Lichess's an evaluation) after every move, so
# a profile of the samples alone told the compiler that comments are
# cold. Every move gets `{ [%eval E] [%clk H:MM:SS] }` (made-up values),
# and Black's move after a comment its number (`1...`), as Lichess writes
# them. Tag lines and blank lines are copied as they are; the games, their
# moves and results do not change.
#
#   awk -f scripts/annotate.awk data/lichess-2000.pgn > annotated.pgn
/^\[/ || /^[ \t]*$/ { print; next }
{
  out = ""
  for (i = 1; i <= NF; i++) {
    t = $i
    if (t ~ /^[0-9]+\.$/) { num = substr(t, 1, length(t) - 1); out = out t " "; white = 1; continue }
    if (t ~ /^(1-0|0-1|1\/2-1\/2|\*)$/) { out = out t " "; continue }
    if (white == 0 && num != "") out = out num "... "
    k++
    out = out t " { [%eval " (k % 7) - 3 "." (k % 10) "] [%clk 0:0" (k % 10) ":" (10 + k % 50) "] } "
    white = 0
  }
  sub(/ $/, "", out)
  print out
}
