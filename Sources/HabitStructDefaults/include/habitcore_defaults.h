/* The functions of this target are declared in include/habitcore.h (the
 * contract); this header only gives the target its module. */
#ifndef HABITCORE_DEFAULTS_H
#define HABITCORE_DEFAULTS_H
#endif
