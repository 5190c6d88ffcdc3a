import numpy as np

from thnn.cuda import CudaTensor

from .Decorator import Decorator
from .Module import Module


def _device(name):
    from thnn import cuda
    return cuda.emulator() if name == "emulator" else cuda.gpu()


def _to(device, value):
    """value (an array or nested table) on device; arrays there already stay."""
    if isinstance(value, (list, tuple)):
        return [_to(device, v) for v in value]
    if isinstance(value, CudaTensor):
        return value if value.device is device else device.to_device(value.numpy())
    if isinstance(value, np.ndarray):
        return device.to_device(value)
    return value


def _like(value, proto):
    """value (on the device) brought to the host where proto (the input) was on the host."""
    if isinstance(value, (list, tuple)):
        protos = proto if isinstance(proto, (list, tuple)) else [proto] * len(value)
        return [_like(v, p) for v, p in zip(value, protos)]
    if isinstance(value, CudaTensor) and isinstance(proto, np.ndarray):
        return value.numpy()
    return value


class GPU(Decorator):
    """Runs ``module`` on a CUDA device (Lua nn's GPU decorator).

    On the host (before ``cuda()``) it only passes calls through.  After
    ``cuda()`` the module's arrays live on the device and every call runs
    there: an input (and a gradOutput) on the host, or on another device,
    is copied to the module's device first; the output stays on the device
    (a CudaTensor); gradInput comes back where the input was (on the host
    for a numpy input).  Tables of arrays are handled entry by entry.

    ``device`` and ``outdevice`` (default: device) are Torch7's cutorch
    device numbers; they are kept (and read from Torch7 files) but this
    library has one CUDA device at a time, the one ``cuda()`` is given
    (``thnn.cuda.default()`` unless named), so the module, its output and
    its work all live there.  ``float()`` / ``double()`` bring everything
    back to the host.
    """

    _buffer_names = ("_input", "_gradOutput")
    _input = _gradOutput = None
    _deviceName = None   # the device's name while the module lives on one
    _integer_arguments = ("device", "outdevice")

    def __init__(self, module, device, outdevice=None):
        super().__init__(module)
        for name, value in (("device", device), ("outdevice", outdevice)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"GPU: {name} must be a device number, got {value!r}")
        self.device = device
        self.outdevice = device if outdevice is None else outdevice

    def _t7_header(self, fields):
        """save_lua: Torch7's nn.GPU writes {type, device} before its fields."""
        return [fields["_type"], self.device]

    def _t7_fixup(self, version):
        self.device = int(self.device)
        self.outdevice = int(getattr(self, "outdevice", self.device))
        self._input = self._gradOutput = None

    def cuda(self, device=None):
        from thnn import cuda
        device = device or cuda.default()
        super().cuda(device)
        self._deviceName = device.name
        return self

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return super().type()
        self._deviceName = None
        self.output = self.gradInput = self._input = self._gradOutput = None
        return super().type(dtype, _memo)

    def updateOutput(self, input):
        if self._deviceName is None:
            self.output = self._child(0, "updateOutput", input)
            return self.output
        self._input = _to(_device(self._deviceName), input)
        self.output = self._child(0, "updateOutput", self._input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        if self._deviceName is None:
            self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
            return self.gradInput
        device = _device(self._deviceName)
        self._input = _to(device, input)
        self._gradOutput = _to(device, gradOutput)
        self.gradInput = _like(self._child(0, "updateGradInput", self._input, self._gradOutput), input)
        return self.gradInput

    def _pass(self, verb, input, gradOutput, number):
        if self._deviceName is not None:
            device = _device(self._deviceName)
            input, gradOutput = _to(device, input), _to(device, gradOutput)
        self._child(0, verb, input, gradOutput, number)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._pass("accGradParameters", input, gradOutput, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._pass("accUpdateGradParameters", input, gradOutput, lr)

    backward = Module.backward   # through the copies above

    def __repr__(self):
        return f"nn.GPU({self.device}) @ " + repr(self.modules[0])
