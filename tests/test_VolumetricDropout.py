"""nn_legacy.VolumetricDropout: whole T x H x W planes zeroed with probability p, kept ones scaled by 1/(1-p).
The checks it shares with SpatialDropout run over the family table in
test_SpatialDropout.py; here its comparison with torch's dropout3d."""
import pytest

import nn_legacy as nn
import plane_dropout_checks as checks


@pytest.mark.parametrize("shape", [(40, 10, 3, 2, 2)], ids=["5D"])
def test_scaling_matches_torch_dropout3d(shape):
    checks.check_scaling_matches_torch(nn.VolumetricDropout, "dropout3d", shape, 3)
