"""Helpers that compiled spec expressions call at run time.

The expression compiler (``mjspec.compiler.expr``) never emits Python's ``**``
operator: a spec could otherwise make a generated engine compute ``2 ** 10 ** 9``.
It emits ``bounded_pow(base, exponent)`` instead, imported from this module.
The names generated code may import from here are listed in
``mjspec.compiler.expr.RUNTIME_HELPERS``.
"""

from __future__ import annotations

__all__ = ["MAX_EXPONENT", "MAX_POW_BITS", "bounded_pow", "count_bits"]

#: Largest exponent a rule expression may use.
MAX_EXPONENT = 64

#: Upper bound on the size (in bits) of a power's result.  The exponent bound
#: alone is not enough: ``((10**9) ** 64) ** 64`` nested a few times would still
#: produce numbers with billions of digits.
MAX_POW_BITS = 4096


def bounded_pow(base: int, exponent: int) -> int:
    """``base ** exponent`` for ints, refusing exponents outside 0..64 and huge results.

    Raises ``ValueError`` with a readable message when the exponent is negative
    or larger than ``MAX_EXPONENT``, or when the result would need more than
    ``MAX_POW_BITS`` bits; ``TypeError`` when either argument is not an int.
    """
    if not isinstance(base, int) or not isinstance(exponent, int):
        raise TypeError(
            f"bounded_pow needs ints, got {type(base).__name__} ** {type(exponent).__name__}"
        )
    if exponent < 0:
        raise ValueError(f"exponent {exponent} is negative; rule expressions use ints only")
    if exponent > MAX_EXPONENT:
        raise ValueError(f"exponent {exponent} is larger than the maximum {MAX_EXPONENT}")
    if base not in (-1, 0, 1) and (abs(base).bit_length() - 1) * exponent >= MAX_POW_BITS:
        raise ValueError(
            f"{base} ** {exponent} would have more than {MAX_POW_BITS} bits; "
            "rule values must stay small"
        )
    result: int = int(base) ** int(exponent)
    return result


def count_bits(mask: int) -> int:
    """How many bits of ``mask`` are set: the compiler counts the groups meeting a condition
    this way on an arrangement's ``set_bits`` or ``group_bits`` (``mjspec.compiler.hoist``)."""
    return mask.bit_count()
