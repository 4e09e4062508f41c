"""The benchmarks' contract adapters answer as the anchors do, on a few corpus lines.

benchmarks/bench_contract.py times ``mjspec score --jsonl`` beside two
adapters that feed the same requests to the independent scorers
(benchmarks/contract_mahjong.py, benchmarks/contract_pymahjonggb.py). A timing
means something only if the adapters score the hands, so each adapter runs
here as its own process on twenty lines of benchmarks/corpus.py and its
answers must agree with mjspec's (``score_request``, what the CLI prints) on
``legal`` and ``total``, wherever the differential tests hold the two to
agree: riichi totals on legal hands (an illegal riichi hand's dora count is
no total for the package), a counted reading of a yakuman set aside
(tests/test_riichi_differential.py); GB with the calculator's 5-fan kong
pair read as the Green Book's 6 (tests/test_gb_differential.py). Each test
skips when its package is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mjspec.app.batch import score_request

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

from corpus import requests  # noqa: E402

LINES = 20


def adapter_answers(script: str, reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The adapter's answers, one per request, from its own process."""
    text = "".join(json.dumps(r) + "\n" for r in reqs)
    done = subprocess.run(
        [sys.executable, str(BENCH / script)],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(reqs), done.stderr
    return answers


def test_the_mahjong_adapter_agrees() -> None:
    pytest.importorskip("mahjong", reason="the mahjong package is not installed")
    reqs = requests("riichi_planet", LINES, seed=12)
    compared = 0
    for req, ref in zip(reqs, adapter_answers("contract_mahjong.py", reqs)):
        mine = score_request(req)
        assert "error" not in ref, (req, ref)
        assert mine["legal"] == ref["legal"], (req, mine, ref)
        counted_yakuman = ref["fu"] is None and mine.get("fu") is not None and mine["total"] >= 13
        if ref["legal"] and not counted_yakuman:
            assert mine["total"] == ref["total"], (req, mine, ref)
            assert mine["payments"] == ref["payments"], (req, mine, ref)
            compared += 1
    assert compared >= LINES // 2


def test_the_mahjong_adapter_plays_rule_book_001() -> None:
    pytest.importorskip("mahjong", reason="the mahjong package is not installed")
    from contract_mahjong import RULES_OF_001
    from riichikit import rules_of_001

    assert vars(RULES_OF_001) == vars(rules_of_001())


def test_the_pymahjonggb_adapter_agrees() -> None:
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed")
    reqs = requests("gb_mcr", LINES, seed=12)
    for req, ref in zip(reqs, adapter_answers("contract_pymahjonggb.py", reqs)):
        mine = score_request(req)
        assert "error" not in ref, (req, ref)
        assert mine["legal"] == ref["legal"], (req, mine, ref)
        kong_pair = sum(p["count"] for p in ref["patterns"] if p["id"] == "明暗杠")
        assert mine["total"] == ref["total"] + kong_pair, (req, mine, ref)
