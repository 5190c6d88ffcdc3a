"""torch-rnn (jcjohnson/torch-rnn, 2016-2017) in Torch7 files: the classes
whose names another package also used, told apart by their fields.

torch-rnn's LSTM was saved as ``nn.LSTM``, the name of the rnn package's
LSTM (nn_legacy.LSTM).  Its objects hold ``input_dim`` and ``hidden_dim``
(and a ``[D + H, 4H]`` weight); the rnn package's hold ``inputSize`` /
``outputSize`` and a step module (``recurrentModule`` / ``modules``).  Such
an object loads as ``nn_legacy.TorchRNNLSTM``.  torch-rnn's other classes
(``nn.LanguageModel``, ``nn.VanillaRNN``, ``nn.TemporalAdapter``) have
names of their own and load as the nn_legacy classes of those names.

A class registered for the name (``register_class("nn.LSTM", ...)`` or
``load_lua(..., classes={"nn.LSTM": ...})``) wins: then nothing is renamed.
"""
from .._helpers.lua import torch_objects


def _torch_rnn_lstm(fields):
    return ("input_dim" in fields and "hidden_dim" in fields
            and not any(k in fields for k in ("recurrentModule", "modules", "inputSize", "outputSize")))


# torch class name -> [(does an object's field table say it is the other class, the name it loads under)]
BY_FIELDS = {"nn.LSTM": [(_torch_rnn_lstm, "nn.TorchRNNLSTM")]}


def retag(raw, known, own):
    """Rename, in the graph read from a file, the objects that BY_FIELDS
    says belong to another class; known: the classes load_lua builds, own:
    nn_legacy's (a name the user mapped to a class of their own is left)."""
    names = [n for n in BY_FIELDS if known.get(n) is own.get(n)]
    if not names:
        return
    for obj in torch_objects(raw, below=lambda obj: [obj.fields, obj.header]):
        if obj.class_name in names and isinstance(obj.fields, dict):
            for test, name in BY_FIELDS[obj.class_name]:
                if test(obj.fields):
                    obj.class_name = name
                    break
