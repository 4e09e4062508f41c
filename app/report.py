"""The HTML report of a simulation (``mjspec simulate ... --report FILE``): one self-contained file.

The plots are drawn by matplotlib (the optional extra ``report``: ``pip install 'mjspec[report]'``)
as SVG and written into the page itself, with their text kept as text (``svg.fonttype: none``) so
the browser draws it in its own fonts, Chinese and Japanese included. The page has no script, no
style sheet and no image from elsewhere. Its words are in the language asked for (``--lang``):
the profile's and the patterns' names come from the spec (each carries every language), the
report's own words from :data:`WORDS`.

Everything shown is read from the statistics' counts (:mod:`mjspec.app.statistics`) and, for a
``--versus`` run, the comparison (:mod:`mjspec.app.versus`), so a report of merged runs is the
report of the run over all their seeds.
"""

from __future__ import annotations

import html
import io
import logging
import warnings
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from mjspec.app.statistics import Statistics, figure
from mjspec.runtime.table import SEATS
from mjspec.runtime.text import LANGUAGES

if TYPE_CHECKING:
    from mjspec.app.simulate import SimulationReport
    from mjspec.app.versus import Comparison


class ReportError(RuntimeError):
    """The report cannot be made here (matplotlib missing): says what to install."""


# fmt: off
_KEYS = (
    "title", "versus", "games", "hands", "seeds", "bots", "seat", "all", "points", "mean",
    "spread", "ci", "place", "average_rank", "win_rate", "self_draw_rate", "deal_in_rate",
    "exhaustion", "abortive", "tied", "hand_length", "turns", "decisions", "hands_per_game",
    "patterns", "pattern", "wins", "per_win", "counted", "payments", "kind", "events",
    "amount", "distribution_points", "distribution_places", "frequency", "totals_of_wins",
    "statistic", "difference", "changed", "none_changed", "method", "leaves_out_zero",
    "paired", "run", "workers", "seconds", "per_hand", "frequency_ab", "method_text",
)

#: The report's own words in every language the specs carry (runtime/text.py LANGUAGES).
WORDS: dict[str, dict[str, str]] = {
    "en": dict(zip(_KEYS, (
        "Simulation", "versus", "games", "hands", "seeds", "bots", "seat", "all", "points",
        "mean", "spread", "95% interval", "place", "average rank", "wins per hand",
        "self-draws per hand", "deal-ins per hand", "exhaustion rate", "abortive draws",
        "tied games", "Length of hands", "turns", "decisions", "hands per game", "Patterns",
        "pattern", "wins", "per win", "counted", "Payments", "kind", "events", "amount",
        "Distribution of points", "Places", "Frequency per win", "Wins by their",
        "statistic", "difference", "Patterns whose frequency changed",
        "No pattern's frequency changed significantly.", "Method",
        "Rows in bold: the interval leaves out 0", "Paired differences, A - B", "Run",
        "workers", "seconds", "per hand", "Frequency per win, A and B",
        "each game is played under both profiles with the same seed and bots, and each"
        " statistic's difference gets a 95% interval from the spread of the per-game"
        " differences (delta method, the game as the unit); a pattern's frequency changed when"
        " the two-sided z-test of its paired difference, Holm-corrected over the patterns, is"
        " below 0.05",
    ))),
    "zh": dict(zip(_KEYS, (
        "模拟", "对比", "局", "盘", "种子", "机器人", "座位", "全部", "分数", "平均", "标准差",
        "95% 区间", "名次", "平均名次", "每盘和牌", "每盘自摸", "每盘放铳", "荒庄率", "流局",
        "同分局", "牌局长度", "巡数", "决策数", "每局盘数", "番种", "番种", "和牌", "每次和牌",
        "计数", "支付", "种类", "次数", "金额", "分数分布", "名次分布", "每次和牌的频率",
        "和牌按", "统计量", "差", "频率有显著变化的番种", "没有番种的频率有显著变化。", "方法",
        "粗体行：区间不含 0", "配对差（A − B）", "运行", "进程", "秒", "每盘",
        "每次和牌的频率（A 与 B）",
        "每局以相同的种子和机器人在两种规则下各打一次，每个统计量的差按逐局差的离散程度给出"
        " 95% 区间（delta 方法，以局为单位）；番种频率的配对差经双侧 z 检验并按 Holm"
        " 方法校正后低于 0.05 时，视为有显著变化",
    ))),
    "ja": dict(zip(_KEYS, (
        "シミュレーション", "対", "対局", "局", "シード", "ボット", "席", "全体", "点数", "平均",
        "標準偏差", "95% 区間", "順位", "平均順位", "和了率（局あたり）", "ツモ率（局あたり）",
        "放銃率（局あたり）", "流局率（荒牌）", "途中流局", "同点の対局", "局の長さ", "巡目",
        "選択数", "対局あたりの局数", "役", "役", "和了", "和了あたり", "回数", "支払い",
        "種類", "件数", "金額", "点数の分布", "順位の分布", "和了あたりの頻度", "和了の",
        "統計量", "差", "頻度が有意に変わった役", "頻度が有意に変わった役はない。", "方法",
        "太字の行：区間は 0 を含まない", "対応のある差（A − B）", "実行", "プロセス", "秒",
        "局あたり", "和了あたりの頻度（A と B）",
        "各対局を同じシードとボットで両方のルールで打ち、各統計量の差に対局ごとの差のばらつき"
        "から 95% 区間を付ける（デルタ法、対局が単位）。役の頻度は、対応のある差の両側 z 検定を"
        " Holm 法で補正した p 値が 0.05 未満のとき変わったとする",
    ))),
    "pt": dict(zip(_KEYS, (
        "Simulação", "contra", "partidas", "mãos", "sementes", "bots", "lugar", "todos",
        "pontos", "média", "desvio-padrão", "intervalo de 95%", "colocação",
        "colocação média", "vitórias por mão", "autocompras por mão", "descartes fatais por mão",
        "taxa de esgotamento", "empates abortivos", "partidas empatadas",
        "Duração das mãos", "turnos", "decisões", "mãos por partida", "Padrões", "padrão",
        "vitórias", "por vitória", "contado", "Pagamentos", "tipo", "eventos", "valor",
        "Distribuição dos pontos", "Colocações", "Frequência por vitória",
        "Vitórias por", "estatística", "diferença", "Padrões cuja frequência mudou",
        "Nenhum padrão mudou de frequência de forma significativa.", "Método",
        "Linhas em negrito: o intervalo exclui 0", "Diferenças pareadas, A − B", "Execução",
        "processos", "segundos", "por mão", "Frequência por vitória, A e B",
        "cada partida é jogada sob as duas regras com a mesma semente e os mesmos bots; a"
        " diferença de cada estatística tem um intervalo de 95% pela dispersão das diferenças"
        " por partida (método delta, a partida como unidade); a frequência de um padrão mudou"
        " quando o teste z bilateral da diferença pareada, corrigido por Holm, fica abaixo de"
        " 0,05",
    ))),
    "fr": dict(zip(_KEYS, (
        "Simulation", "contre", "parties", "donnes", "graines", "bots", "place", "tous",
        "points", "moyenne", "écart-type", "intervalle à 95 %", "rang", "rang moyen",
        "victoires par donne", "victoires sur pioche par donne",
        "victoires offertes par donne", "taux d'épuisement du mur", "nulles abortives",
        "parties à égalité", "Longueur des donnes", "tours", "décisions", "donnes par partie",
        "Combinaisons", "combinaison", "victoires", "par victoire", "comptée", "Paiements",
        "genre", "événements", "montant", "Distribution des points", "Rangs",
        "Fréquence par victoire", "Victoires par", "statistique", "différence",
        "Combinaisons dont la fréquence a changé",
        "Aucune combinaison n'a changé de fréquence de façon significative.", "Méthode",
        "Lignes en gras : l'intervalle exclut 0", "Différences appariées, A − B", "Exécution",
        "processus", "secondes", "par donne", "Fréquence par victoire, A et B",
        "chaque partie est jouée sous les deux règles avec la même graine et les mêmes bots ;"
        " la différence de chaque statistique reçoit un intervalle à 95 % tiré de la dispersion"
        " des différences par partie (méthode delta, la partie comme unité) ; la fréquence"
        " d'une combinaison a changé quand le test z bilatéral de sa différence appariée,"
        " corrigé par Holm, est sous 0,05",
    ))),
}
# fmt: on

#: The profile's unit of a win's total (``scoring.total`` of the spec), in every language.
UNITS: dict[str, dict[str, str]] = {
    "han": {"en": "han", "zh": "翻", "ja": "翻", "pt": "han", "fr": "han"},
    "fan": {"en": "fan", "zh": "番", "ja": "番", "pt": "fan", "fr": "fan"},
    "doubles": {"en": "doubles", "zh": "倍", "ja": "倍", "pt": "dobras", "fr": "doubles"},
    "points": {"en": "points", "zh": "分", "ja": "点", "pt": "pontos", "fr": "points"},
    "fu": {"en": "fu", "zh": "符", "ja": "符", "pt": "fu", "fr": "fu"},
}

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;text-align:right;
border-bottom:1px solid #eee}th{background:#f4f4f4}td.l,th.l{text-align:left}
.sig{font-weight:bold;color:#a40}.plot svg{max-width:100%;height:auto}.note{color:#555}
"""


def _need_matplotlib() -> Any:
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ReportError(
            "the HTML report draws its plots with matplotlib: pip install 'mjspec[report]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)  # absent CJK fonts

    plt.rcParams.update(
        {
            "svg.fonttype": "none",  # text stays text: the browser's fonts draw every language
            "svg.hashsalt": "mjspec",  # the same ids every time: the same report for the same run
            "font.family": "sans-serif",
            # Measured with a CJK font where one is installed (matplotlib falls back glyph by
            # glyph along the list); the browser draws the text in its own fonts either way.
            "font.sans-serif": ["DejaVu Sans", "Noto Sans CJK JP", "Noto Sans CJK SC"],
            "figure.dpi": 100,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


class _Page:
    """The report's words and names in one language, and the page being written."""

    def __init__(self, lang: str, profiles: Sequence[str]) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.words = WORDS[lang]
        self.plt = _need_matplotlib()
        self.parts: list[str] = []
        self.names: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        from mjspec.app.registry import load_profile

        for pid in profiles:
            try:
                profile = load_profile(pid)
            except Exception:  # a profile this install does not have: its ids stand for names
                self.titles[pid] = pid
                continue
            self.titles[pid] = profile.names.get(lang)
            for p in profile.patterns:
                self.names.setdefault(p.id, p.names.get(lang))

    def w(self, key: str) -> str:
        return self.words[key]

    def statistic(self, name: str, seat: int | None) -> str:
        """A statistic of the comparison (app/versus.py names them in English) in the language."""
        w = self.w
        known = {
            "points": w("points"),
            "points spread (RMS)": f"{w('points')}: {w('spread')} (RMS)",
            "average rank": w("average_rank"),
            "wins/hand": w("win_rate"),
            "self-draws/hand": w("self_draw_rate"),
            "deal-ins/hand": w("deal_in_rate"),
            "exhaustion rate": w("exhaustion"),
            "abortive draws/hand": f"{w('abortive')} ({w('per_hand')})",
            "hands per game": w("hands_per_game"),
            "decisions per hand": f"{w('decisions')} ({w('per_hand')})",
            "turns per hand": f"{w('turns')} ({w('per_hand')})",
        }
        text = known.get(name)
        if text is None and name.endswith(" per win"):
            text = f"{self.unit(name[: -len(' per win')])} ({w('per_win')})"
        text = text or name
        return text if seat is None else f"{text}, {w('seat')} {seat}"

    def pattern(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def unit(self, unit: str | None) -> str:
        if unit is None:
            return ""
        return UNITS.get(unit, {}).get(self.lang, unit)

    def add(self, text: str) -> None:
        self.parts.append(text)

    def h2(self, text: str) -> None:
        self.add(f"<h2>{html.escape(text)}</h2>")

    def p(self, text: str, cls: str = "") -> None:
        klass = f' class="{cls}"' if cls else ""
        self.add(f"<p{klass}>{html.escape(text)}</p>")

    def table(
        self, head: Sequence[str], rows: Sequence[Sequence[Any]], marks: Sequence[bool] = ()
    ) -> None:
        out = ["<table><tr>"]
        out += [
            f'<th{" class=l" if i == 0 else ""}>{html.escape(h)}</th>' for i, h in enumerate(head)
        ]
        out.append("</tr>")
        for r, row in enumerate(rows):
            sig = ' class="sig"' if r < len(marks) and marks[r] else ""
            out.append(f"<tr{sig}>")
            for i, cell in enumerate(row):
                text = cell if isinstance(cell, str) else figure(cell)
                out.append(f'<td{" class=l" if i == 0 else ""}>{html.escape(text)}</td>')
            out.append("</tr>")
        out.append("</table>")
        self.add("".join(out))

    def plot(self, draw: Callable[[Any], None], height: float = 3.2) -> None:
        with warnings.catch_warnings():
            # Text stays text in the SVG and the browser draws it; matplotlib only measures it
            # for the layout, with the fonts it finds, and would warn of every CJK glyph.
            warnings.filterwarnings("ignore", message="Glyph .* missing from font")
            warnings.filterwarnings("ignore", message="findfont")
            fig, ax = self.plt.subplots(figsize=(9, height))
            draw(ax)
            fig.tight_layout()
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None})
            self.plt.close(fig)
        svg = buf.getvalue()
        svg = svg[svg.index("<svg") :]  # the XML prologue and doctype do not belong in HTML
        self.add(f'<div class="plot">{svg}</div>')

    def html(self, title: str) -> str:
        body = "\n".join(self.parts)
        return (
            f'<!DOCTYPE html>\n<html lang="{self.lang}"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n"
        )


def _header(page: _Page, st: Statistics) -> str:
    w = page.w
    seeds = ", ".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in st.seeds)
    return f"{st.games} {w('games')}, {st.hands} {w('hands')}; {w('seeds')} {seeds}"


def _bots(page: _Page, st: Statistics) -> None:
    w = page.w
    page.p(f"{w('bots')}: " + ", ".join(f"{w('seat')} {i} {b}" for i, b in enumerate(st.bots)))


def _seat_table(page: _Page, st: Statistics) -> None:
    w = page.w
    d = st.derived()
    seats, overall = d["seats"], d["overall"]
    head = [w("seat"), *[str(i) for i in range(SEATS)], w("all")]

    def ci(m: Mapping[str, Any]) -> str:
        c = m["ci95"]
        return "-" if c is None else f"[{figure(c[0])}, {figure(c[1])}]"

    rows: list[list[Any]] = [
        [
            f"{w('points')}: {w('mean')}",
            *[s["points"]["mean"] for s in seats],
            overall["points"]["mean"],
        ],
        [
            f"{w('points')}: {w('spread')}",
            *[s["points"]["spread"] for s in seats],
            overall["points"]["spread"],
        ],
        [f"{w('points')}: {w('ci')}", *[ci(s["points"]) for s in seats], ci(overall["points"])],
    ]
    for place in range(SEATS):
        rows.append([f"{w('place')} {place + 1}", *[s["places"][place] for s in seats], ""])
    rows.append([w("average_rank"), *[s["average_rank"] for s in seats], 2.5])
    for key, all_key in (
        ("win_rate", "wins_per_hand"),
        ("self_draw_rate", "self_draws_per_hand"),
        ("deal_in_rate", "deal_ins_per_hand"),
    ):
        rows.append([w(key), *[s[key] for s in seats], overall[all_key]])
    page.table(head, rows)
    hand_rows = [
        [w("exhaustion"), overall["exhaustion_rate"]],
        [w("abortive"), sum(st.aborted.values())],
        [w("tied"), st.tied_games],
        [f"{w('turns')} ({w('per_hand')}): {w('mean')}", overall["turns_per_hand"]["mean"]],
        [f"{w('decisions')} ({w('per_hand')}): {w('mean')}", overall["decisions_per_hand"]["mean"]],
        [f"{w('hands_per_game')}: {w('mean')}", overall["hands_per_game"]["mean"]],
    ]
    page.table(["", ""], hand_rows)


def _bars(ax: Any, series: Sequence[tuple[str, Mapping[int, int]]], xlabel: str) -> None:
    """Each series' distribution (a count by integer value) as bars side by side, as shares."""
    width = 0.8 / max(1, len(series))
    for k, (label, counts) in enumerate(series):
        total = sum(counts.values()) or 1
        xs = sorted(counts)
        ax.bar(
            [x + (k - (len(series) - 1) / 2) * width for x in xs],
            [counts[x] / total for x in xs],
            width,
            label=label,
        )
    xs_all = sorted(set().union(*(counts for _, counts in series)))
    if 0 < len(xs_all) <= 30:
        ax.set_xticks(xs_all)  # whole values: seats, totals, turns
    ax.set_xlabel(xlabel)
    if len(series) > 1:
        ax.legend()


def _histogram(ax: Any, series: Sequence[tuple[str, Mapping[int, int]]], xlabel: str) -> None:
    """Each series' distribution of many values, in 30 common bins, as step lines of shares."""
    values = [v for _, counts in series for v in counts]
    if not values:
        return
    lo, hi = min(values), max(values)
    edges = [lo + (hi - lo) * i / 30 for i in range(31)] if hi > lo else [lo - 0.5, lo + 0.5]
    for label, counts in series:
        ax.hist(
            list(counts),
            bins=edges,
            weights=[counts[v] / (sum(counts.values()) or 1) for v in counts],
            histtype="step",
            linewidth=1.6,
            label=label,
        )
    ax.set_xlabel(xlabel)
    ax.legend()


def _pattern_bars(
    page: _Page, ax: Any, series: Sequence[tuple[str, Statistics]], top: int = 25
) -> None:
    ids = sorted(
        set().union(*(st.pattern_wins for _, st in series)),
        key=lambda p: (-max(st.pattern_wins[p] / (st.wins or 1) for _, st in series), p),
    )[:top]
    height = 0.8 / len(series)
    for k, (label, st) in enumerate(series):
        ys = [i + k * height for i in range(len(ids))]
        ax.barh(ys, [st.pattern_wins[p] / (st.wins or 1) for p in ids], height, label=label)
    ax.set_yticks([i + height * (len(series) - 1) / 2 for i in range(len(ids))])
    ax.set_yticklabels([page.pattern(p) for p in ids])
    ax.invert_yaxis()
    ax.set_xlabel(page.w("frequency"))
    if len(series) > 1:
        ax.legend(loc="lower right")


def _pattern_rows(page: _Page, st: Statistics) -> list[list[Any]]:
    wins = st.wins or 1
    return [
        [page.pattern(p), v, v / wins, st.pattern_counts[p]]
        for p, v in sorted(st.pattern_wins.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def run_report(report: SimulationReport | Statistics, lang: str = "en") -> str:
    """The page of one run (or of merged runs: their statistics)."""
    st = report if isinstance(report, Statistics) else report.statistics
    page = _Page(lang, [st.profile])
    w = page.w
    page.p(_header(page, st))
    _bots(page, st)
    if not isinstance(report, Statistics):
        run = report.run_json()
        page.p(
            # the count after its label: no plural to agree with it ("1 workers")
            f"{w('run')}: {run['seconds']} {w('seconds')}, {w('workers')}: {run['workers']}",
            "note",
        )
    _seat_table(page, st)
    page.h2(w("distribution_points"))
    page.plot(
        lambda ax: _histogram(
            ax, [(f"{w('seat')} {i}", s.point_counts) for i, s in enumerate(st.seats)], w("points")
        )
    )
    page.h2(w("distribution_places"))
    page.plot(
        lambda ax: _bars(
            ax,
            [
                (f"{w('place')} {p + 1}", {i: s.places[p] for i, s in enumerate(st.seats)})
                for p in range(SEATS)
            ],
            w("seat"),
        )
    )
    page.h2(w("patterns"))
    n = min(25, len(st.pattern_wins))
    page.plot(lambda ax: _pattern_bars(page, ax, [("", st)]), height=0.8 + 0.28 * max(n, 3))
    page.table([w("pattern"), w("wins"), w("per_win"), w("counted")], _pattern_rows(page, st))
    unit = page.unit(st.total_unit)
    page.h2(f"{w('totals_of_wins')} {unit}")
    page.plot(lambda ax: _bars(ax, [("", st.totals)], unit))
    if st.points_unit is not None:
        page.plot(lambda ax: _bars(ax, [("", st.fu)], page.unit(st.points_unit)))
    page.h2(w("hand_length"))
    page.plot(lambda ax: _bars(ax, [("", st.hand_lengths)], w("turns")))
    page.h2(w("payments"))
    page.table(
        [w("kind"), w("events"), w("amount")],
        [[k, v, st.payment_amounts[k]] for k, v in sorted(st.payment_events.items())],
    )
    return page.html(f"{w('title')}: {page.titles[st.profile]}")


def versus_report(comparison: Comparison, lang: str = "en") -> str:
    """The page of a ``--versus`` run: both profiles side by side and their paired differences."""
    from mjspec.app.versus import ALPHA

    sa, sb = comparison.a.statistics, comparison.b.statistics
    page = _Page(lang, [sa.profile, sb.profile])
    w = page.w
    a_label, b_label = f"A: {page.titles[sa.profile]}", f"B: {page.titles[sb.profile]}"
    page.p(f"{a_label}; {b_label}")
    page.p(_header(page, sa))
    _bots(page, sa)
    page.h2(w("paired"))
    rows, marks = [], []
    for d in comparison.statistics:
        ci = "-" if d.ci95 is None else f"[{figure(d.ci95[0])}, {figure(d.ci95[1])}]"
        rows.append([page.statistic(d.name, d.seat), d.a, d.b, d.difference, ci])
        marks.append(d.ci95 is not None and (d.ci95[0] > 0 or d.ci95[1] < 0))
    page.table([w("statistic"), "A", "B", w("difference"), w("ci")], rows, marks)
    page.p(w("leaves_out_zero"), "note")
    page.p(f"{w('method')}: {w('method_text')}.", "note")
    rates = [
        d
        for d in comparison.statistics
        if d.seat is None and d.ci95 is not None and d.name in _RATE_NAMES
    ]

    def forest(ax: Any) -> None:
        for i, d in enumerate(rates):
            lo, hi = d.ci95 or (d.difference, d.difference)
            ax.plot([lo, hi], [i, i], color="#444")
            ax.plot([d.difference], [i], "o", color="#a40")
        ax.axvline(0, color="#999", linewidth=1)
        ax.set_yticks(range(len(rates)))
        ax.set_yticklabels([page.statistic(d.name, None) for d in rates])
        ax.invert_yaxis()
        ax.set_xlabel(f"A - B ({w('ci')})")

    page.plot(forest, height=0.8 + 0.4 * max(len(rates), 3))
    page.h2(w("changed"))
    changed = comparison.changed()
    if changed:
        page.table(
            [w("pattern"), "A", "B", w("difference"), "p (Holm)"],
            [[page.pattern(d.name), d.a, d.b, d.difference, f"{p:.2g}"] for d, p in changed],
        )
    else:
        page.p(w("none_changed"))
    page.p(f"α = {ALPHA}", "note")
    page.h2(w("frequency_ab"))
    n = min(25, len(set(sa.pattern_wins) | set(sb.pattern_wins)))
    page.plot(
        lambda ax: _pattern_bars(page, ax, [(a_label, sa), (b_label, sb)]),
        height=0.8 + 0.4 * max(n, 3),
    )
    page.h2(w("distribution_points"))

    def pooled(st: Statistics) -> dict[int, int]:
        out: dict[int, int] = {}
        for s in st.seats:
            for k, v in s.point_counts.items():
                out[k] = out.get(k, 0) + v
        return out

    page.plot(
        lambda ax: _histogram(ax, [(a_label, pooled(sa)), (b_label, pooled(sb))], w("points"))
    )
    page.h2(f"{w('totals_of_wins')} {page.unit(sa.total_unit)}")
    page.plot(
        lambda ax: _bars(ax, [(a_label, sa.totals), (b_label, sb.totals)], page.unit(sa.total_unit))
    )
    page.h2(w("hand_length"))
    page.plot(
        lambda ax: _bars(ax, [(a_label, sa.hand_lengths), (b_label, sb.hand_lengths)], w("turns"))
    )
    title = f"{w('title')}: {page.titles[sa.profile]} {w('versus')} {page.titles[sb.profile]}"
    return page.html(title)


_RATE_NAMES = (
    "wins/hand",
    "self-draws/hand",
    "deal-ins/hand",
    "exhaustion rate",
    "abortive draws/hand",
)
