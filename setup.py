from setuptools import setup

setup(cffi_modules=["thnn/_build.py:ffibuilder"])
