from .Threshold import Threshold


class ReLU(Threshold):
    """Rectified linear unit: ``y = max(0, x)``, that is ``Threshold(0, 0)``.

    ``inplace=True`` overwrites the input (and, going back, gradOutput).
    """

    def __init__(self, inplace=False):
        super().__init__(0, 0, inplace)

    def __repr__(self):
        return f"nn.ReLU{'(in-place)' if self.inplace else ''}"
