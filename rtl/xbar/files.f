rtl/common/crc8.v
rtl/common/fifo_fwft_bram.v
rtl/common/rr_arbiter.v
rtl/xbar/xbar_in.v
rtl/xbar/xbar_out.v
rtl/xbar/xbar_counters.v
rtl/xbar/xbar.v
