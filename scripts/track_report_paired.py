"""The dashboard's section of the paired history (track.py report --paired DIR): every step at
its commit and each point's level since the chain's start, from track_paired.check's findings."""

from html import escape


def _e(text):
    return escape(str(text), quote=True)


def _ratio(value):
    return "-" if value is None else f"{value:.3f}"


def _steps_html(found):
    if not found["steps"]:
        return '<p class="paired-none">No step found in the paired history.</p>'
    rows = ['<table class="paired-steps"><tr><th>commit</th><th>against</th><th>date</th>'
            "<th>point</th><th>ratio [interval]</th><th>verdict</th></tr>"]
    for s in found["steps"]:
        word, cls = (("accepted: " + s["accepted"], "accepted") if s["accepted"]
                     else ("slower", "regression"))
        rows.append(f'<tr><td class="commit">{_e(s["commit"])}</td><td class="commit">'
                    f'{_e(s["base"])}</td><td>{_e(s["date"])}</td><td>{_e(s["point"])}</td>'
                    f'<td class="num">{_ratio(s["ratio"])} [{_ratio(s["ci_low"])}, '
                    f'{_ratio(s["ci_high"])}]</td><td class="{cls}">{_e(word)}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def _levels_html(found):
    rows = [f'<table class="paired-levels"><tr><th>point</th><th>level since '
            f'<span class="commit">{_e(found["level_since"])}</span> [approximate 95 %]</th>'
            "<th>commits</th></tr>"]
    for name, level in found["levels"].items():
        shown = ("no level (an entry did not judge it)" if level is None else
                 f"x{level['level']:.3f} [{level['low']:.3f}, {level['high']:.3f}]")
        count = "-" if level is None else level["entries"]
        rows.append(f'<tr><td>{_e(name)}</td><td class="num">{shown}</td>'
                    f'<td class="num">{count}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def paired_html(found):
    """The section, or None when no paired history was given."""
    if found is None:
        return None
    word = (f"regression at {found['newest']}: {', '.join(found['failing'])}" if found["red"]
            else f"no regression at {found['newest']}")
    out = ['<section class="paired" id="paired"><h2>Paired history (each commit against its '
           "parent, one A/B job)</h2>",
           f'<p class="paired-verdict">{found["entries"]} entries of machine '
           f'{_e(found["machine"])}; verdict: <strong>{_e(word)}</strong>.</p>',
           _steps_html(found)]
    out += [f'<p class="paired-break">{_e(line)}</p>' for line in found["breaks"]]
    out += [f'<p class="paired-not-judged">not judged at {_e(found["newest"])}: {_e(p)}</p>'
            for p in found["not_judged"]]
    out += [_levels_html(found), "</section>"]
    return "\n".join(out)
