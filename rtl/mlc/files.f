# Maestro Link Controller (docs/mlc.md): top `mlc`; `mlc_pair` (two ends, master and slave, for the
# lockstep bench; the link between them is the bench's link model)
rtl/common/crc16.v
rtl/common/sdp_ram.v
rtl/mlc/mlc.v
rtl/mlc/mlc_pair.v
