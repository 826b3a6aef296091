/* SPDX-License-Identifier: MIT */
/* The build's identity: version (from git describe or the VERSION file) and install prefix. */
#ifndef IOWATT_VERSION_H
#define IOWATT_VERSION_H

/* "0.2.0+g1a2b3c4" in a git checkout, "0.2.0" from a release tarball. */
extern const char iowatt_version[];
/* Where `make install` puts share/iowatt (profiles, gnuplot templates). */
extern const char iowatt_prefix[];

#endif
