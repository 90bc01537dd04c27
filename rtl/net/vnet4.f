# RTL of the generated 4-switch VC network (rtl/net/vnet4.v): the VC switch, then the network top
+incdir+rtl/common
rtl/common/rr_pick.v
rtl/common/rr_arbiter.v
rtl/common/ctr_bank.v
rtl/common/delay_line.v
rtl/vcsw/vcsw_in_lookup.v
rtl/vcsw/vcsw_in_admit.v
rtl/vcsw/vcsw_in_buf.v
rtl/vcsw/vcsw_in_offer.v
rtl/vcsw/vcsw_in.v
rtl/vcsw/vcsw_out.v
rtl/vcsw/vcsw_cfg.v
rtl/vcsw/vcsw.v
rtl/net/vnet4.v
