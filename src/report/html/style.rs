//! The page's head: everything before the first section, the style sheet
//! inline (the page fetches nothing, so there is no style sheet to link).

/// The document up to the opening of `<main>`: meta, title and the whole
/// style sheet.
pub(super) const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pgn-arbiter statistics report</title>
<style>
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 15px; line-height: 1.4; color: #1b1b1b; background: #fff; margin: 0; }
main { max-width: 1120px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid #ccc; }
h3 { font-size: 16px; margin: 20px 0 6px; }
p { margin: 6px 0; }
.meta { color: #444; }
.note { color: #555; font-size: 13px; }
nav ul { margin: 4px 0; padding-left: 20px; columns: 2; }
table { border-collapse: collapse; margin: 8px 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; vertical-align: top; }
th { background: #f2f2f2; text-align: left; font-weight: bold; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { max-width: 420px; overflow-wrap: anywhere; }
td.points-moved, i.points-moved { background: #fff3cd; }
td.rank-moved, i.rank-moved { background: #cfe2ff; font-weight: bold; }
tfoot td { font-weight: bold; background: #fafafa; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
svg { display: block; max-width: 100%; height: auto; margin: 6px 0; }
svg text { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 12px; fill: #1b1b1b; }
.legend span { display: inline-block; margin-right: 16px; font-size: 13px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; border: 1px solid #888; }
.ok { color: #1e7e34; }
.bad { color: #b00020; font-weight: bold; }
details { margin: 4px 0; }
.nw { white-space: nowrap; }
.scroll { overflow-x: auto; }
summary { cursor: pointer; color: #333; font-size: 14px; }
</style>
</head>
<body>
<main>
"#;
