#include "TH.h"

#include <stdarg.h>
#include <stdio.h>

#define TH_GENERIC_FILE "generic/THTensor.c"
#include "THGenerateAllTypes.h"
