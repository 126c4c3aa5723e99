#include "isa-l/include/igzip_lib.h"
