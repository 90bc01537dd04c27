# Maestro switch box (docs/switchbox.md): top `sbox`; its PORTS ports are whole MLCs (docs/mlc.md,
# the files of rtl/mlc/files.f but mlc_pair), then the box's sources, barriers and register port
rtl/common/crc16.v
rtl/common/sdp_ram.v
rtl/common/rr_pick.v
rtl/mlc/mlc.v
rtl/mlc/sbox_pset.v
rtl/mlc/sbox_src.v
rtl/mlc/sbox_barrier.v
rtl/mlc/sbox_regs.v
rtl/mlc/sbox.v
