"""Builds the optional compiled kernels (streamboost/_kernels.c); everything else is in
pyproject.toml. Without a C compiler the build goes on and streamboost runs their pure-Python
twins (`streamboost.kernels`), slower but with the same results."""

from pathlib import Path

import numpy
from setuptools import Extension, setup

setup(
    ext_modules=[
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
)
