# Maestro switch box (docs/sbox.md): top `sbox`; its PORTS ports are whole MLCs (docs/mlc.md,
# the files of rtl/mlc/files.f but mlc_pair), then the box's sources, barriers, register port, bus (rule 1),
# analyzer (rule 2) and manager (rule 3)
rtl/common/crc16.v
rtl/common/sdp_ram.v
rtl/common/rr_pick.v
rtl/mlc/mlc_msg_parse.v
rtl/mlc/mlc_link.v
rtl/mlc/mlc_send.v
rtl/mlc/mlc_recv.v
rtl/mlc/mlc_hostq.v
rtl/mlc/mlc_regs.v
rtl/mlc/mlc.v
rtl/sbox/sbox_pset.v
rtl/sbox/sbox_src.v
rtl/sbox/sbox_barrier.v
rtl/sbox/sbox_regs.v
rtl/sbox/sbox_bus.v
rtl/sbox/sbox_analyzer.v
rtl/sbox/sbox_manager.v
rtl/sbox/sbox.v
