# RTL of the generated 4-switch network (rtl/net/net4.v): the crossbar, then the network top
+incdir+rtl/common
+incdir+rtl/xbar
rtl/common/crc8.v
rtl/common/fifo_fwft_bram.v
rtl/common/rr_pick.v
rtl/common/rr_arbiter.v
rtl/common/ctr_bank.v
rtl/common/delay_line.v
rtl/xbar/xbar_ingress.v
rtl/xbar/xbar_rdside.v
rtl/xbar/xbar_in.v
rtl/xbar/xbar_out.v
rtl/xbar/xbar_counters.v
rtl/xbar/xbar.v
rtl/net/net4.v
