"""Demos of nn_legacy beyond the main job (``python -m nn_legacy``):

- ``python -m nn_legacy.demos.charlm``: a character-level LSTM language
  model trained with explicit backpropagation through time.
"""
