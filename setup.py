"""Builds the optional compiled kernels (streamboost/_kernels.c); everything else is in
pyproject.toml. Without a C compiler, or without numpy at build time, the build goes on and
streamboost runs their pure-Python twins (`streamboost.kernels`): slower, the same results."""

from pathlib import Path

from setuptools import Extension, setup


def kernels() -> list[Extension]:
    try:
        import numpy
    except ImportError:  # a build without isolation and without numpy: no kernels
        return []
    return [
        Extension(
            "streamboost._kernels",
            sources=["streamboost/_kernels.c"],
            # numpy's Poisson sampler, to draw what Generator.poisson draws
            library_dirs=[str(Path(numpy.__file__).parent / "random" / "lib")],
            libraries=["npyrandom", "m"],
            # the twins' arithmetic in their order: no fused multiply-adds
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]


setup(ext_modules=kernels())
