"""Player-visible text in every language a profile is rendered in."""

from __future__ import annotations

from dataclasses import dataclass

#: The languages every player-visible string of a spec must carry.
LANGUAGES: tuple[str, ...] = ("en", "zh", "ja", "pt", "fr")


@dataclass(frozen=True, slots=True)
class Text:
    """One string in English, Simplified Chinese, Japanese, Portuguese and French."""

    en: str
    zh: str
    ja: str
    pt: str
    fr: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` (one of :data:`LANGUAGES`)."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        value: str = getattr(self, lang)
        return value
