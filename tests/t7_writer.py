"""The Torch7 writer the tests build files with: nn_legacy's own
(nn_legacy/serialization/t7_writer.py, under ``nn_legacy.save_lua``),
imported here under the names the tests have always used."""
from nn_legacy.serialization.t7_writer import (NO_PAYLOAD, Function, Key, Storage, T7Object, Tensor,  # noqa: F401
                                               element_of, t7_bytes)
