/* Debian's libpq-dev installs libpq-fe.h under /usr/include/postgresql; its own
 * includes ("postgres_ext.h") resolve beside it. */
#include <postgresql/libpq-fe.h>
