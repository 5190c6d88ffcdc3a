"""What a layer needs to describe itself to the ONNX exporter without
importing it: the exception its ``_onnx`` raises for a configuration ONNX
cannot express, and ONNX's numbers for element types.  The exporter
(``nn_legacy.onnx``) imports them from here and re-exports them."""


class NotExportable(Exception):
    """Raised by a module's ``_onnx`` for a configuration ONNX cannot express."""


# ONNX TensorProto.DataType numbers, by numpy dtype name
_ELEMENT_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "int16": 5, "int32": 6, "int64": 7, "bool": 9,
                  "float64": 11, "uint32": 12, "uint64": 13}
