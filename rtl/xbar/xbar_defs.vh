// sanfab — crossbar constants shared by its modules: slack-buffer entry kinds.
//
// Included inside a module body (`include "xbar_defs.vh"); rtl/xbar/files.f puts rtl/xbar on the
// include path. Slack-buffer entries are 10 bits {kind[1:0], byte[7:0]}. The link characters are
// in rtl/common/link_defs.vh (generated from cmodel/link.h).
/* verilator lint_off UNUSEDPARAM */
localparam [1:0] K_DATA  = 2'd0,   // a byte of the packet
                 K_LAST  = 2'd1,   // the packet's last byte (its regenerated CRC)
                 K_HDR   = 2'd2,   // the route byte: starts a packet
                 K_ABORT = 2'd3;   // the packet ends without a CRC: sent on as ABORT
/* verilator lint_on UNUSEDPARAM */
