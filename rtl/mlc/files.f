# Maestro Link Controller (docs/mlc.md): top `mlc` (rtl/mlc/mlc.v) wiring one module per rule of the
# doc's "Steps" (mlc_link rules 1-3, mlc_send 4-5, mlc_recv 2 and 6, mlc_hostq 7, mlc_regs 8; the
# message parser step mlc_msg_parse); `mlc_pair` (two ends, master and slave, for the lockstep bench;
# the link between them is the bench's link model)
rtl/common/crc16.v
rtl/common/sdp_ram.v
rtl/mlc/mlc_msg_parse.v
rtl/mlc/mlc_link.v
rtl/mlc/mlc_send.v
rtl/mlc/mlc_recv.v
rtl/mlc/mlc_hostq.v
rtl/mlc/mlc_regs.v
rtl/mlc/mlc.v
rtl/mlc/mlc_pair.v
