"""The application layer: the ``mjspec`` command line over the runtime and, lazily, the compiler.

The runtime imports only the standard library; this layer may import the
runtime freely and imports the compiler only inside the commands that compile
(``build``, ``validate``, ``diff``, ``new``), so scoring and play start fast.
"""
