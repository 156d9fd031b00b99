"""The analysis of a pulka (:mod:`preflog.analysis`) as text (80 columns), JSON and viewer marks."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING
from typing import Any

from ..analysis import CardLoss
from ..analysis import DealAnalysis
from ..analysis import PulkaAnalysis
from ..analysis import solver_name
from ..analysis.result import cards_text
from ..model.cards import format_card
from ..model.cards import format_cards
from .json import CLI_JSON_VERSION

if TYPE_CHECKING:
    from ..analysis.table import BuildResult


def analysis_json(analyses: Sequence[PulkaAnalysis]) -> dict[str, Any]:
    """``preflog analyze --json`` (docs/cli.md): ``{"kind", "version", "solver", "pulkas": [...]}``."""
    return {"kind": "analyze", "version": CLI_JSON_VERSION, "solver": solver_name(),
            "pulkas": [a.to_json() for a in analyses]}


def number(x: Fraction | int | None) -> str:
    """An exact number for people: ``8``, ``-20/3``, ``32 2/3`` (with a no-break space)."""
    if x is None:
        return "?"
    f = Fraction(x)
    if f.denominator == 1:
        return str(f.numerator)
    whole, rest = divmod(abs(f.numerator), f.denominator)
    sign = "-" if f < 0 else ""
    # a no-break space: a wrapped line never splits "38 2/3"
    return f"{sign}{whole}\u00a0{rest}/{f.denominator}" if whole else f"{sign}{rest}/{f.denominator}"


def _tricks(n: int) -> str:
    return f"{n} trick{'' if abs(n) == 1 else 's'}"


def loss_text(x: CardLoss, unit: str) -> str:
    """``Vera's 9♣ at trick 4 lost 1 trick (best A♠ K♠); it cost Vera 8 visty``."""
    best = " ".join(format_card(c, "unicode") for c in x.best)
    text = f"{x.player}'s {format_card(x.card, 'unicode')} at trick {x.trick} lost {_tricks(x.lost)} (best {best})"
    if x.holder != x.seat:
        text += " (from the passer's hand, played by the whister)"
    if x.cost is not None:
        text += f"; it cost {x.player} {number(x.cost)} {unit}"
        if x.money is not None and x.money != x.cost:
            text += f" (money {number(x.money)})"
    return text


def _head(d: DealAnalysis) -> str:
    if d.skipped:
        return f"Deal {d.deal}: not analysed: {d.skipped}"
    if not d.declarer_name:
        return f"Deal {d.deal}: raspasy"
    return f"Deal {d.deal}: {d.declarer_name} {d.contract} ({d.kind.replace('_', ' ')})"


def deal_lines(d: DealAnalysis) -> list[str]:
    """The deal's findings, one sentence per line (not wrapped)."""
    out = [_head(d)]
    if d.skipped:
        return out
    if d.declarer_name and d.double_dummy is not None:
        verdict = ""
        if d.makeable is not None and d.margin is not None:
            if d.goal == "fewest":
                verdict = "a clean miser" if d.makeable else f"catchable: {_tricks(-d.margin)}"
                verdict = verdict.replace("miser", "no-trick contract") if d.contract != "miser" else verdict
            else:
                verdict = (f"makeable, {d.margin} over" if d.margin > 0 else "makeable exactly") if d.makeable \
                    else f"not makeable, {-d.margin} short"
        line = f"  double dummy at the opening lead: {d.declarer_name} takes {_tricks(d.double_dummy)}"
        out.append(line + (f" ({verdict})" if verdict else ""))
        if d.actual is not None:
            made = "" if d.made is None else (", made" if d.made else ", failed")
            out.append(f"  as played: {_tricks(d.actual)}{made}")
    for b in d.bounds:
        out.append(f"  {b.player}: can hold himself to {_tricks(b.bound)} from trick {d.first_trick} "
                   f"whatever the others do (a bound); took {b.actual}")
    if not d.losses:
        out.append("  no card lost a trick")
    for x in d.losses:
        out.append("  " + loss_text(x, d.unit))
    if d.claim is not None and d.claim.claimed != d.claim.best:
        out.append(f"  the claim at trick {d.claim.trick} gave the declarer {d.claim.claimed}, "
                   f"perfect play {d.claim.best}")
    for w in d.whist:
        if w.right is None:
            out.append(f"  {w.player}'s {w.call}: not judged ({w.reason})")
        else:
            verdict = "right" if w.right else "wrong"
            out.append(f"  {w.player}'s {w.call} was {verdict}: {number(w.value)} {d.unit} "
                       f"against {number(w.alternative_value)} for {w.alternative}")
    if d.discard is not None:
        dr = d.discard
        out.append(f"  discard {format_cards(dr.actual, 'unicode')} gives {_tricks(dr.actual_tricks)}; best "
                   f"{format_cards(dr.best, 'unicode')} gives {_tricks(dr.best_tricks)}")
    if d.par is not None:
        p = d.par
        if p.label:
            out.append(f"  par: {p.label} (discarding {format_cards(p.discard, 'unicode')})")
        else:
            out.append("  par: no contract makes")
    for note in d.notes:
        out.append(f"  note: {note}")
    return out


def analysis_text(a: PulkaAnalysis, width: int = 80) -> str:
    """The analysis of a pulka as plain text lines of at most ``width`` columns."""
    lines = [f"Pulka {a.pulka}: {', '.join(a.players)} · {a.rules} · solver {a.solver}"]
    for d in a.deals:
        for line in deal_lines(d):
            indent = " " * (len(line) - len(line.lstrip()))
            lines.extend(textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_on_hyphens=False)
                         or [""])
    return "\n".join(lines)


def mistake_marks(a: PulkaAnalysis) -> dict[int, str]:
    """Event seq of every card that lost tricks → the title the deal viewer gives it."""
    marks: dict[int, str] = {}
    for d in a.deals:
        for x in d.losses:
            marks[x.seq] = loss_text(x, d.unit).replace("\u00a0", " ")
    return marks


def analysis_report_json(built: BuildResult, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``preflog analyze --all --json`` (docs/cli.md): what the run analysed, and the report per player."""
    return {"kind": "analyze --all", "version": CLI_JSON_VERSION, "solver": solver_name(),
            "analysed": built.analysed, "dropped": built.dropped, "current": built.current,
            "rows": [dict(r) for r in rows]}


def _verdict(d: DealAnalysis) -> str:
    """Makeable and by how much, as :func:`deal_lines` says it."""
    if d.makeable is None or d.margin is None:
        return ""
    if d.goal == "fewest":
        word = "a clean miser" if d.contract == "miser" else "clean: no trick"
        return word if d.makeable else f"catchable: {_tricks(-d.margin)}"
    if d.makeable:
        return f"makeable, {d.margin} over" if d.margin > 0 else "makeable exactly"
    return f"not makeable, {-d.margin} short"


def deal_view(d: DealAnalysis) -> dict[str, Any]:
    """One deal of the analysis as the deal viewer of ``analyze --html`` shows it: a head, the figures as
    (name, text) pairs, the cards that lost tricks, and why a deal was not analysed."""
    facts: list[tuple[str, str]] = []
    if not d.skipped:
        if d.declarer_name and d.double_dummy is not None:
            verdict = _verdict(d)
            facts.append(("double dummy", f"{d.declarer_name} takes {_tricks(d.double_dummy)}"
                          + (f" ({verdict})" if verdict else "")))
        if d.needed is not None:
            facts.append(("needed", f"{'at most' if d.goal == 'fewest' else 'at least'} {_tricks(d.needed)}"))
        if d.actual is not None:
            made = "" if d.made is None else (", made" if d.made else ", failed")
            facts.append(("as played", f"{_tricks(d.actual)}{made}"))
        for b in d.bounds:
            facts.append((f"{b.player}'s bound", f"at most {_tricks(b.bound)} from trick {d.first_trick} "
                          f"whatever the others do; took {b.actual}"))
        if d.discard is not None:
            dr = d.discard
            best = "the best" if dr.actual_tricks == dr.best_tricks else f"best {cards_text(dr.best)}"
            facts.append(("discard", f"{cards_text(dr.actual)} gives {_tricks(dr.actual_tricks)}; {best}"
                          + ("" if dr.actual_tricks == dr.best_tricks else f" gives {_tricks(dr.best_tricks)}")))
        for w in d.whist:
            if w.right is None:
                facts.append((f"{w.player}'s {w.call}", f"not judged ({w.reason})"))
            else:
                facts.append((f"{w.player}'s {w.call}", f"{'right' if w.right else 'wrong'}: {number(w.value)} "
                              f"{d.unit} against {number(w.alternative_value)} for {w.alternative}"))
        if d.par is not None:
            facts.append(("par", f"{d.par.label} (discarding {cards_text(d.par.discard)})" if d.par.label
                          else "no contract makes"))
        if d.claim is not None:
            facts.append(("claim", f"at trick {d.claim.trick}: {d.claim.claimed} claimed, "
                          f"{d.claim.best} with perfect play"))
        facts.append(("cards that lost tricks", str(len(d.losses)) if d.losses else "none"))
        for note in d.notes:
            facts.append(("note", note))
    return {"head": _head(d), "contract": d.contract or None, "skipped": d.skipped or None, "facts": facts,
            "mistakes": [[x.seq, loss_text(x, d.unit)] for x in d.losses]}


def analysis_view(a: PulkaAnalysis) -> dict[str, Any]:
    """The analysis as the deal viewer holds it (``analyze --html``): per deal :func:`deal_view`, and for
    every card analysed the double-dummy value of each card its player could have played there
    (``values``: seq → [whose tricks, [[card, tricks], …], the best card's value])."""
    values = {str(seq): [whose, [[c, v] for c, v in sorted(vals.items())], best]
              for d in a.deals for seq, (whose, vals, best) in d.values.items()}
    return {"deals": {str(d.deal): deal_view(d) for d in a.deals}, "values": values}
