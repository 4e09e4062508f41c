"""mjspec: a declarative rule-spec compiler for mahjong.

The import root maps the project's top-level folders: ``mjspec.compiler``
(spec loading, checking and code generation), ``mjspec.runtime`` (the
mechanisms every generated engine runs on), ``mjspec.generated`` (one engine
module per profile, never edited by hand) and ``mjspec.specs`` (the bundled
YAML rule specs).
"""

__version__ = "0.1.0"
