from .Clamp import Clamp


class ReLU6(Clamp):
    """``y = min(max(x, 0), 6)`` elementwise; any shape.  That is
    ``Clamp(0, 6)``: the gradient passes where ``0 < x < 6`` and is 0
    elsewhere.  ``inplace=True`` overwrites the input (and, going back,
    gradOutput).
    """

    min_val, max_val = 0.0, 6.0  # Torch7 files store only ``inplace``

    def __init__(self, inplace=False):
        super().__init__(0, 6, inplace)

    def __repr__(self):
        return f"nn.ReLU6{'(in-place)' if self.inplace else ''}"
