# Training copies of a PGN file for the profile-guided build
# (scripts/pgo.sh), in the export formats of the three sites whose rules
# the audit knows. The bundled samples have no comment and no chess.com or
# FICS game, so a profile of them alone laid out the comment paths and
# those sites' rules as cold code. `-v style=` picks the format (values
# and clocks are made up):
#
#   lichess   `{ [%eval E] [%clk H:MM:SS] }` after every move (the default)
#   chesscom  Site "Chess.com", a Termination naming the winner, and
#             `{[%clk H:MM:SS.D]}` after every move
#   fics      Site "FICS freechess.org" and the ruling as the last comment
#             (`{Black resigns}`)
#
# After a comment, Black's move gets its number (`1...`), as the sites
# write it. The games, their moves and results do not change.
#
#   awk -v style=chesscom -f scripts/annotate.awk data/lichess-2000.pgn
BEGIN { if (style == "") style = "lichess" }
/^\[Site / && style == "chesscom" { print "[Site \"Chess.com\"]"; next }
/^\[Site / && style == "fics" { print "[Site \"FICS freechess.org\"]"; next }
/^\[Termination / && style == "chesscom" { next }
/^\[White / { white_name = $0; sub(/^\[White "/, "", white_name); sub(/"\].*$/, "", white_name) }
/^\[Black / { black_name = $0; sub(/^\[Black "/, "", black_name); sub(/"\].*$/, "", black_name) }
/^\[Result / && style == "chesscom" {
  print
  r = $2; gsub(/[\]"]/, "", r)
  t = r == "1-0" ? white_name " won by resignation" : r == "0-1" ? black_name " won by resignation" : "Game drawn by agreement"
  print "[Termination \"" t "\"]"
  next
}
/^\[/ || /^[ \t]*$/ { print; next }
style == "fics" {
  line = $0
  if (line ~ / (1-0|0-1|1\/2-1\/2)$/) {
    c = line ~ /1-0$/ ? "{Black resigns}" : line ~ /0-1$/ ? "{White resigns}" : "{Game drawn by mutual agreement}"
    sub(/ (1-0|0-1|1\/2-1\/2)$/, " " c "&", line)
  }
  print line
  next
}
{
  out = ""
  for (i = 1; i <= NF; i++) {
    t = $i
    if (t ~ /^[0-9]+\.$/) { num = substr(t, 1, length(t) - 1); out = out t " "; white = 1; continue }
    if (t ~ /^(1-0|0-1|1\/2-1\/2|\*)$/) { out = out t " "; continue }
    if (white == 0 && num != "") out = out num "... "
    k++
    if (style == "chesscom") out = out t " {[%clk 0:0" (k % 10) ":" (10 + k % 50) "." (k % 10) "]} "
    else out = out t " { [%eval " (k % 7) - 3 "." (k % 10) "] [%clk 0:0" (k % 10) ":" (10 + k % 50) "] } "
    white = 0
  }
  sub(/ $/, "", out)
  print out
}
