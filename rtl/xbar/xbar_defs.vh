// sanfab — crossbar constants shared by its modules: link characters and slack-buffer entry kinds.
//
// Included inside a module body (`include "xbar_defs.vh"); rtl/xbar/files.f puts rtl/xbar on the
// include path. Link characters are 9 bits {control, code}: control=0 is a data byte; the codes
// below are the control characters of docs/xbar.md (and cmodel/link.h). Slack-buffer entries are
// 10 bits {kind[1:0], byte[7:0]}.
/* verilator lint_off UNUSEDPARAM */
localparam [7:0] C_IDLE  = 8'h00, C_GAP = 8'h01, C_STOP = 8'h02, C_GO = 8'h03, C_ABORT = 8'h04;
localparam [8:0] CH_IDLE = {1'b1, C_IDLE}, CH_GAP = {1'b1, C_GAP}, CH_STOP = {1'b1, C_STOP},
                 CH_GO   = {1'b1, C_GO},   CH_ABORT = {1'b1, C_ABORT};
localparam [1:0] K_DATA  = 2'd0,   // a byte of the packet
                 K_LAST  = 2'd1,   // the packet's last byte (its regenerated CRC)
                 K_HDR   = 2'd2,   // the route byte: starts a packet
                 K_ABORT = 2'd3;   // the packet ends without a CRC: sent on as ABORT
/* verilator lint_on UNUSEDPARAM */
