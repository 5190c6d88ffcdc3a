/* Every kernel, expanded for Float and Double: one generic file per layer.
 *
 * The list is not kept here: the build writes THNN_layers.h (under
 * build/generated/) from the files, one generic/<Layer>.c for each layer
 * that THNN.h declares, in name order (thnn/_layers.py says how; run
 * `python thnn/_layers.py` to see it).  A layer file compiles on its own in
 * any order: the helpers several layers share are generic headers that each
 * includes (generic/Pointwise.h, unfold.h, vol2col.h, Pooling.h,
 * Resampling.h, ConnectionMap.h, SoftMaxRows.h, ClassNLL.h, SeqRecurrent.h). */
#include "THNN.h"

#include <math.h>
#include <string.h>

/* the build compiles the layers as parts, each naming its list in THNN_LAYERS
 * (build/generated/THNN_part<k>.c); without it, every layer in one unit */
#ifdef THNN_LAYERS
#include THNN_LAYERS
#else
#include "THNN_layers.h"
#endif
