/* openassembler.h -- public C API of libopenassembler.
 *
 * The library turns PTX into SASS and cubins for sm_80 and sm_90, and
 * decodes, prints, parses and encodes SASS.  This header grows with the
 * library; internal headers live next to their sources under src/. */
#ifndef OPENASSEMBLER_H
#define OPENASSEMBLER_H

#define OA_VERSION "0.1.0"

#endif
